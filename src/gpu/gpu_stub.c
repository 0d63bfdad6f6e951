/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU API (GB/T 32918.1/.2 batches) when the library is built without
 * CUDA: every call says so with FASTSM2_ERR_UNSUPPORTED (outputs zeroed).
 * With CUDA, src/gpu/gpu_api.c implements it. */
#include "../internal.h"

#if !defined(FASTSM2_WITH_CUDA)
int fastsm2_gpu_device_count(void)
{
    return 0;
}

int fastsm2_gpu_new(fastsm2_gpu **ctx, int device, unsigned flags)
{
    (void)device;
    (void)flags;
    if (ctx)
        *ctx = NULL;
    return FASTSM2_ERR_UNSUPPORTED;
}

void fastsm2_gpu_free(fastsm2_gpu *ctx)
{
    (void)ctx;
}

const char *fastsm2_gpu_device_name(const fastsm2_gpu *ctx)
{
    (void)ctx;
    return "none (built without CUDA)";
}

int fastsm2_gpu_sign_digest_batch(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                                  const unsigned char *digests, size_t n)
{
    (void)ctx, (void)keys, (void)nkeys, (void)digests;
    if (sigs && n <= SIZE_MAX / 64)
        memset(sigs, 0, 64 * n);
    return FASTSM2_ERR_UNSUPPORTED;
}

int fastsm2_gpu_verify_digest_batch(fastsm2_gpu *ctx, int *results, const fastsm2_pubkey *pubs, size_t npubs,
                                    const unsigned char *digests, const unsigned char *sigs, size_t n)
{
    (void)ctx, (void)pubs, (void)npubs, (void)digests, (void)sigs;
    if (results && n <= SIZE_MAX / sizeof(int))
        memset(results, 0, sizeof(int) * n);
    return FASTSM2_ERR_UNSUPPORTED;
}

int fastsm2_gpu_keygen_batch(fastsm2_gpu *ctx, unsigned char *pubs, const unsigned char *privs, size_t n)
{
    (void)ctx, (void)privs;
    if (pubs && n <= SIZE_MAX / 65)
        memset(pubs, 0, 65 * n);
    return FASTSM2_ERR_UNSUPPORTED;
}
#endif
