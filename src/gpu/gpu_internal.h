/* SPDX-License-Identifier: Apache-2.0 */
/* Internal entry points of the GPU API for tests and fastsm2-speed. Each
 * returns FASTSM2_ERR_UNSUPPORTED in a build without CUDA. */
#ifndef FS2_GPU_INTERNAL_H
#define FS2_GPU_INTERNAL_H

#include "internal.h"

/* fastsm2_gpu_sign_digest_batch with caller-chosen nonces k (n*32 bytes,
 * each in [1, n-1], else FASTSM2_ERR_SCALAR; FASTSM2_ERR_SCALAR too when a
 * k gives r = 0, r + k = n or s = 0), so that the GPU's (r, s) can be
 * compared bit for bit with fastsm2_sign_digest_with_nonce. TESTS ONLY. */
FS2_HIDDEN int fs2_gpu_sign_digest_batch_with_nonces(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys,
                                                     size_t nkeys, const unsigned char *digests,
                                                     const unsigned char *nonces, size_t n);

/* The three batch calls, also reporting the kernel's own time in seconds
 * (*kernel_s, the batch then runs as one chunk) when kernel_s is non-NULL. */
FS2_HIDDEN int fs2_gpu_sign_timed(fastsm2_gpu *ctx, unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                                  const unsigned char *digests, size_t n, double *kernel_s);
FS2_HIDDEN int fs2_gpu_verify_timed(fastsm2_gpu *ctx, int *results, const fastsm2_pubkey *pubs, size_t npubs,
                                    const unsigned char *digests, const unsigned char *sigs, size_t n,
                                    double *kernel_s);
FS2_HIDDEN int fs2_gpu_keygen_timed(fastsm2_gpu *ctx, unsigned char *pubs, const unsigned char *privs, size_t n,
                                    double *kernel_s);

/* The CUDA runtime's message for the context's last failure ("" if none;
 * never NULL). */
FS2_HIDDEN const char *fs2_gpu_last_error(const fastsm2_gpu *ctx);

/* Items per chunk of a batch (the build option FASTSM2_GPU_CHUNK; 0
 * without CUDA). */
FS2_HIDDEN size_t fs2_gpu_chunk_items(void);

/* Width in bits of the context's fixed-base table (0 without CUDA). */
FS2_HIDDEN int fs2_gpu_table_bits(const fastsm2_gpu *ctx);

#endif
