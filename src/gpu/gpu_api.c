/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GPU API (GB/T 32918.2 clauses 6.1 and 7.1, GB/T 32918.1 clause 6.1 in
 * batches) when the library is built with CUDA: argument checks, the key
 * material taken out of the opaque key objects, the per-batch nonce seed
 * from the OS CSPRNG, and the rare items a device nonce could not sign
 * (redone here with fresh CSPRNG nonces). The CUDA work is behind
 * src/gpu/gpu_cuda.h (src/gpu/cuda/sm2_gpu_kernels.cu).
 */
#include <stdlib.h>

#include "gpu/gpu_cuda.h"
#include "gpu/gpu_internal.h"
#include "protocol/protocol.h"

#if defined(FASTSM2_WITH_CUDA)

struct fastsm2_gpu {
    fs2_cuda *cu;
    unsigned flags;
    int w;
    /* the key whose fixed-base table the device holds (kw = 0: none) */
    int kw;
    uint32_t kpub[16];
};

int fastsm2_gpu_device_count(void)
{
    return fs2_cuda_device_count();
}

/* FASTSM2_GPU_TABLE_BITS: the fast mode's table width, 2..16 (docs/GPU.md). */
static int table_bits(void)
{
    const char *s = getenv("FASTSM2_GPU_TABLE_BITS");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v >= 2 && v <= 16)
            return (int)v;
    }
    return FS2_CUDA_TABLE_BITS_DEFAULT;
}

int fastsm2_gpu_new(fastsm2_gpu **ctx, int device, unsigned flags)
{
    if (!ctx)
        return FASTSM2_ERR_ARG;
    *ctx = NULL;
    if (flags & ~FASTSM2_GPU_CONSTANT_TIME)
        return FASTSM2_ERR_ARG;
    if (device < 0 || device >= fs2_cuda_device_count())
        return FASTSM2_ERR_UNSUPPORTED;
    int w = (flags & FASTSM2_GPU_CONSTANT_TIME) ? FS2_CUDA_CT_TABLE_BITS : table_bits();
    int nseg = (256 + w - 1) / w;
    /* segment bases 2^(s w) G, s w < 256 (so below n), by the CPU library */
    uint32_t *bases = calloc((size_t)nseg, 16 * sizeof(uint32_t));
    fastsm2_gpu *g = calloc(1, sizeof(*g));
    if (!bases || !g) {
        free(bases);
        free(g);
        return FASTSM2_ERR_NO_MEMORY;
    }
    for (int s = 0; s < nseg; s++) {
        uint64_t k[4] = {0, 0, 0, 0};
        fs2_affine b;
        k[(s * w) / 64] = (uint64_t)1 << ((s * w) % 64);
        fs2_ec()->mul_base(&b, k);
        for (int i = 0; i < 4; i++) {
            bases[16 * s + 2 * i] = (uint32_t)b.x[i];
            bases[16 * s + 2 * i + 1] = (uint32_t)(b.x[i] >> 32);
            bases[16 * s + 8 + 2 * i] = (uint32_t)b.y[i];
            bases[16 * s + 8 + 2 * i + 1] = (uint32_t)(b.y[i] >> 32);
        }
    }
    int ret = fs2_cuda_new(&g->cu, device, (flags & FASTSM2_GPU_CONSTANT_TIME) != 0, w, bases, nseg);
    free(bases);
    if (ret != FASTSM2_OK) {
        free(g);
        return ret;
    }
    g->flags = flags;
    g->w = w;
    *ctx = g;
    return FASTSM2_OK;
}

void fastsm2_gpu_free(fastsm2_gpu *ctx)
{
    if (!ctx)
        return;
    fs2_cuda_free(ctx->cu);
    free(ctx);
}

const char *fastsm2_gpu_device_name(const fastsm2_gpu *ctx)
{
    return ctx ? fs2_cuda_name(ctx->cu) : "none";
}

const char *fs2_gpu_last_error(const fastsm2_gpu *ctx)
{
    return ctx ? fs2_cuda_error(ctx->cu) : "";
}

int fs2_gpu_table_bits(const fastsm2_gpu *ctx)
{
    return ctx ? ctx->w : 0;
}

size_t fs2_gpu_chunk_items(void)
{
    return fs2_cuda_chunk_items();
}

/* d and (1 + d)^-1 * 2^256 mod n of a key as 16 words. */
static void key_words(uint32_t w[16], const fs2_priv *k)
{
    const fs2_sc *dinv = &k->dinv_m;
    for (int i = 0; i < 4; i++) {
        w[2 * i] = (uint32_t)k->d[i];
        w[2 * i + 1] = (uint32_t)(k->d[i] >> 32);
        w[8 + 2 * i] = (uint32_t)dinv->v[i];
        w[8 + 2 * i + 1] = (uint32_t)(dinv->v[i] >> 32);
    }
}

static int sign_batch(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                      const unsigned char *digests, const unsigned char *nonces, size_t n, double *kernel_s)
{
    if (!sigs && n)
        return FASTSM2_ERR_ARG;
    if (n > SIZE_MAX / 64)
        return FASTSM2_ERR_ARG;
    if (!ctx || !keys || !digests || !(nkeys == 1 || nkeys == n)) {
        if (sigs)
            memset(sigs, 0, 64 * n);
        return FASTSM2_ERR_ARG;
    }
    if (n == 0)
        return FASTSM2_OK;
    int ret = FASTSM2_OK;
    uint32_t seed[8];
    uint32_t *kw = malloc(nkeys * 16 * sizeof(uint32_t));
    if (!kw) {
        memset(sigs, 0, 64 * n);
        return FASTSM2_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < nkeys && ret == FASTSM2_OK; i++) {
        const fs2_priv *k = fs2_priv_get(&keys[i]);
        if (!k)
            ret = FASTSM2_ERR_ARG;
        else
            key_words(kw + 16 * i, k);
    }
    if (ret == FASTSM2_OK && nonces) {
        /* every k in [1, n-1]: one constant-time check per item, one
         * (public) outcome for the batch */
        uint64_t all = ~(uint64_t)0, tmp[4];
        for (size_t i = 0; i < n; i++)
            all &= fs2_scalar_load_check(tmp, nonces + 32 * i, 0);
        fs2_wipe(tmp, sizeof tmp);
        fs2_declassify(&all, sizeof all);
        if (!all)
            ret = FASTSM2_ERR_SCALAR;
    }
    if (ret == FASTSM2_OK && !fs2_random_bytes(seed, sizeof seed))
        ret = FASTSM2_ERR_RANDOM;
    size_t nbad = 0;
    if (ret == FASTSM2_OK)
        ret = fs2_cuda_sign(ctx->cu, sigs, kw, nkeys, digests, nonces, seed, n, &nbad, kernel_s);
    fs2_wipe(seed, sizeof seed);
    fs2_wipe(kw, nkeys * 16 * sizeof(uint32_t));
    free(kw);
    if (ret == FASTSM2_OK && nbad) {
        /* an item the device could not sign (r = 0 in the output): its
         * nonce gave r = 0, r + k = n or s = 0 (about 2^-254 per item), or
         * kG met the fixed-base multiplication's exceptional case (about
         * 2^-240). Signed here: with the given nonce (which then fails as
         * fastsm2_sign_digest_with_nonce fails), else with a CSPRNG one. */
        static const unsigned char zero[32];
        for (size_t i = 0; i < n && ret == FASTSM2_OK; i++) {
            if (memcmp(sigs + 64 * i, zero, 32) != 0)
                continue;
            const fastsm2_privkey *k = &keys[nkeys == 1 ? 0 : i];
            if (nonces)
                ret = fastsm2_sign_digest_with_nonce(sigs + 64 * i, k, digests + 32 * i, nonces + 32 * i);
            else
                ret = fastsm2_sign_digest(sigs + 64 * i, k, digests + 32 * i);
        }
    }
    if (ret != FASTSM2_OK)
        memset(sigs, 0, 64 * n);
    return ret;
}

int fastsm2_gpu_sign_digest_batch(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                                  const unsigned char *digests, size_t n)
{
    return sign_batch(ctx, sigs, keys, nkeys, digests, NULL, n, NULL);
}

int fs2_gpu_sign_timed(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                       const unsigned char *digests, size_t n, double *kernel_s)
{
    return sign_batch(ctx, sigs, keys, nkeys, digests, NULL, n, kernel_s);
}

int fs2_gpu_sign_digest_batch_with_nonces(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys,
                                          size_t nkeys, const unsigned char *digests, const unsigned char *nonces,
                                          size_t n)
{
    if (!nonces && n) {
        if (sigs)
            memset(sigs, 0, 64 * n);
        return FASTSM2_ERR_ARG;
    }
    return sign_batch(ctx, sigs, keys, nkeys, digests, nonces, n, NULL);
}

/* The width of the fixed-base table of the key for a one-key verification
 * batch of n items, 0 for none (tP then by the window per item).
 * FASTSM2_GPU_KEY_TABLE_BITS: 0 (never) or 2..16 overrides the choice, which
 * is the width that makes the least work by a model in SASS instructions
 * (docs/GPU.md "Verification"): building an entry costs about
 * KT_ENTRY + KT_ENTRY_BIT w (a small multiplication and an inversion), a
 * verification with the table about KT_ADD per fixed-base segment of G and
 * of the key, one without about KT_WINDOW. */
#define KT_ENTRY     15000.0
#define KT_ENTRY_BIT 2700.0
#define KT_ADD       1950.0
#define KT_WINDOW    600000.0
static int key_table_bits(size_t n, int gw)
{
    const char *s = getenv("FASTSM2_GPU_KEY_TABLE_BITS");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end == '\0' && (v == 0 || (v >= 2 && v <= 16)))
            return (int)v;
    }
    int best = 0;
    double best_cost = KT_WINDOW * (double)n, gseg = (256 + gw - 1) / gw;
    for (int w = 4; w <= 16; w++) {
        double seg = (256 + w - 1) / w, entries = seg * (double)(1u << (w - 1));
        double cost = entries * (KT_ENTRY + KT_ENTRY_BIT * w) + (double)n * KT_ADD * (gseg + seg);
        if (cost < best_cost)
            best = w, best_cost = cost;
    }
    return best;
}

int fs2_gpu_verify_timed(fastsm2_gpu *ctx, int *results, const fastsm2_pubkey *pubs, size_t npubs,
                         const unsigned char *digests, const unsigned char *sigs, size_t n, double *kernel_s)
{
    if (!results && n)
        return FASTSM2_ERR_ARG;
    if (n > SIZE_MAX / 64)
        return FASTSM2_ERR_ARG;
    if (!ctx || !pubs || !digests || !sigs || !(npubs == 1 || npubs == n)) {
        if (results)
            memset(results, 0, sizeof(int) * n);
        return FASTSM2_ERR_ARG;
    }
    if (n == 0)
        return FASTSM2_OK;
    uint32_t *pw = calloc(npubs, 16 * sizeof(uint32_t));
    if (!pw) {
        memset(results, 0, sizeof(int) * n);
        return FASTSM2_ERR_NO_MEMORY;
    }
    int ret = FASTSM2_OK;
    for (size_t i = 0; i < npubs && ret == FASTSM2_OK; i++) {
        const fs2_pub *p = fs2_pub_get(&pubs[i]);
        if (!p) {
            ret = FASTSM2_ERR_ARG;
            break;
        }
        for (int j = 0; j < 4; j++) {
            pw[16 * i + 2 * j] = (uint32_t)p->pub.pt.x[j];
            pw[16 * i + 2 * j + 1] = (uint32_t)(p->pub.pt.x[j] >> 32);
            pw[16 * i + 8 + 2 * j] = (uint32_t)p->pub.pt.y[j];
            pw[16 * i + 8 + 2 * j + 1] = (uint32_t)(p->pub.pt.y[j] >> 32);
        }
    }
    int kw = npubs == 1 && ret == FASTSM2_OK ? key_table_bits(n, ctx->w) : 0;
    uint32_t *kbases = NULL;
    if (kw && (kw != ctx->kw || memcmp(ctx->kpub, pw, sizeof ctx->kpub) != 0)) {
        /* a new key or width: its segment bases 2^(s kw) P, by the CPU */
        int nseg = (256 + kw - 1) / kw;
        const fs2_pub *p = fs2_pub_get(&pubs[0]);
        kbases = malloc((size_t)nseg * 16 * sizeof(uint32_t));
        if (!kbases)
            ret = FASTSM2_ERR_NO_MEMORY;
        for (int sg = 0; sg < nseg && ret == FASTSM2_OK; sg++) {
            uint64_t k[4] = {0, 0, 0, 0};
            fs2_affine b;
            k[(sg * kw) / 64] = (uint64_t)1 << ((sg * kw) % 64);
            fs2_ec()->mul(&b, &p->pub.pt, fs2_pub_tables(p), k);
            for (int i = 0; i < 4; i++) {
                kbases[16 * sg + 2 * i] = (uint32_t)b.x[i];
                kbases[16 * sg + 2 * i + 1] = (uint32_t)(b.x[i] >> 32);
                kbases[16 * sg + 8 + 2 * i] = (uint32_t)b.y[i];
                kbases[16 * sg + 8 + 2 * i + 1] = (uint32_t)(b.y[i] >> 32);
            }
        }
        ctx->kw = 0; /* until the device holds the new table */
    }
    if (ret == FASTSM2_OK)
        ret = fs2_cuda_verify(ctx->cu, results, pw, npubs, digests, sigs, n, kw, kbases, kernel_s);
    if (ret == FASTSM2_OK && kbases) {
        ctx->kw = kw;
        memcpy(ctx->kpub, pw, sizeof ctx->kpub);
    }
    /* items the device could not decide (a fixed-base multiplication's
     * exceptional case, about 2^-240): verified here */
    for (size_t i = 0; i < n && ret == FASTSM2_OK; i++)
        if (results[i] < 0)
            results[i] = fastsm2_verify_digest(&pubs[npubs == 1 ? 0 : i], digests + 32 * i, sigs + 64 * i) == 1;
    free(kbases);
    free(pw);
    if (ret != FASTSM2_OK)
        memset(results, 0, sizeof(int) * n);
    return ret;
}

int fastsm2_gpu_verify_digest_batch(fastsm2_gpu *ctx, int *results, const fastsm2_pubkey *pubs, size_t npubs,
                                    const unsigned char *digests, const unsigned char *sigs, size_t n)
{
    return fs2_gpu_verify_timed(ctx, results, pubs, npubs, digests, sigs, n, NULL);
}

int fs2_gpu_keygen_timed(fastsm2_gpu *ctx, unsigned char *pubs, const unsigned char *privs, size_t n, double *kernel_s)
{
    if (!pubs && n)
        return FASTSM2_ERR_ARG;
    if (n > SIZE_MAX / 65)
        return FASTSM2_ERR_ARG;
    if (!ctx || !privs) {
        if (pubs)
            memset(pubs, 0, 65 * n);
        return FASTSM2_ERR_ARG;
    }
    if (n == 0)
        return FASTSM2_OK;
    /* every d in [1, n-2], checked in constant time; one public outcome */
    uint64_t all = ~(uint64_t)0, tmp[4];
    for (size_t i = 0; i < n; i++)
        all &= fs2_scalar_load_check(tmp, privs + 32 * i, 1);
    fs2_wipe(tmp, sizeof tmp);
    fs2_declassify(&all, sizeof all);
    size_t nbad = 0;
    int ret = all ? fs2_cuda_keygen(ctx->cu, pubs, privs, n, &nbad, kernel_s) : FASTSM2_ERR_PRIVATE_KEY;
    if (ret == FASTSM2_OK && nbad) {
        /* keys the device left to the host (x = y = 0 in the output: no
         * point of the curve): kG's exceptional case, about 2^-240 */
        static const unsigned char zero[64];
        for (size_t i = 0; i < n; i++) {
            if (memcmp(pubs + 65 * i + 1, zero, 64) != 0)
                continue;
            uint64_t d[4];
            fs2_affine p;
            (void)fs2_scalar_load_check(d, privs + 32 * i, 1);
            fs2_ec()->mul_base(&p, d);
            fs2_wipe(d, sizeof d);
            fs2_u256_to_be(pubs + 65 * i + 1, p.x);
            fs2_u256_to_be(pubs + 65 * i + 33, p.y);
        }
    }
    if (ret != FASTSM2_OK)
        memset(pubs, 0, 65 * n);
    return ret;
}

int fastsm2_gpu_keygen_batch(fastsm2_gpu *ctx, unsigned char *pubs, const unsigned char *privs, size_t n)
{
    return fs2_gpu_keygen_timed(ctx, pubs, privs, n, NULL);
}

#else /* no CUDA: the internal entry points say so too (the public ones are in gpu_stub.c) */

int fs2_gpu_sign_digest_batch_with_nonces(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys,
                                          size_t nkeys, const unsigned char *digests, const unsigned char *nonces,
                                          size_t n)
{
    (void)ctx, (void)keys, (void)nkeys, (void)digests, (void)nonces;
    if (sigs && n <= SIZE_MAX / 64)
        memset(sigs, 0, 64 * n);
    return FASTSM2_ERR_UNSUPPORTED;
}

int fs2_gpu_sign_timed(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                       const unsigned char *digests, size_t n, double *kernel_s)
{
    (void)kernel_s;
    return fastsm2_gpu_sign_digest_batch(ctx, sigs, keys, nkeys, digests, n);
}

int fs2_gpu_verify_timed(fastsm2_gpu *ctx, int *results, const fastsm2_pubkey *pubs, size_t npubs,
                         const unsigned char *digests, const unsigned char *sigs, size_t n, double *kernel_s)
{
    (void)kernel_s;
    return fastsm2_gpu_verify_digest_batch(ctx, results, pubs, npubs, digests, sigs, n);
}

int fs2_gpu_keygen_timed(fastsm2_gpu *ctx, unsigned char *pubs, const unsigned char *privs, size_t n, double *kernel_s)
{
    (void)kernel_s;
    return fastsm2_gpu_keygen_batch(ctx, pubs, privs, n);
}

const char *fs2_gpu_last_error(const fastsm2_gpu *ctx)
{
    (void)ctx;
    return "built without CUDA";
}

int fs2_gpu_table_bits(const fastsm2_gpu *ctx)
{
    (void)ctx;
    return 0;
}

size_t fs2_gpu_chunk_items(void)
{
    return 0;
}

#endif
