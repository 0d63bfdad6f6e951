/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The seam between the GPU API (src/gpu/gpu_api.c, C, which knows the
 * library's key objects) and the CUDA runtime code (cuda/sm2_gpu_kernels.cu,
 * C++, which knows nothing of them). Words are little-endian 32-bit limbs of
 * the integers; byte buffers are the API's big-endian formats, passed
 * through to the device unchanged. Every function returns a FASTSM2_* code
 * and never aborts; fs2_cuda_error() holds the CUDA runtime's message for
 * the last failure.
 */
#ifndef FS2_GPU_CUDA_H
#define FS2_GPU_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FS2_CUDA_HIDDEN __attribute__((visibility("hidden")))

typedef struct fs2_cuda fs2_cuda;

/* Table widths: the fast mode's (FASTSM2_GPU_TABLE_BITS, default below) and
 * the constant-time mode's. */
#define FS2_CUDA_TABLE_BITS_DEFAULT 16
#define FS2_CUDA_CT_TABLE_BITS      8

FS2_CUDA_HIDDEN int fs2_cuda_device_count(void);

/* Items per chunk of a batch (the build option FASTSM2_GPU_CHUNK). */
FS2_CUDA_HIDDEN size_t fs2_cuda_chunk_items(void);

/* A context on `device`: builds the fixed-base table of width w on the
 * device from its segment bases 2^(s w) G (nseg affine points, 16 words
 * each: x then y). ct = 1 selects the constant-time mode (w must be 4). */
FS2_CUDA_HIDDEN int fs2_cuda_new(fs2_cuda **out, int device, int ct, int w, const uint32_t *bases, int nseg);
FS2_CUDA_HIDDEN void fs2_cuda_free(fs2_cuda *c);
FS2_CUDA_HIDDEN const char *fs2_cuda_name(const fs2_cuda *c);
FS2_CUDA_HIDDEN const char *fs2_cuda_error(const fs2_cuda *c);

/* Timing of the kernels alone, for fastsm2-speed: when non-NULL the batch
 * runs as one chunk and *kernel_s gets the kernel's time in seconds. */

/* Sign n digests (n*32 bytes) into n*64 bytes r||s. keys: nkeys (1 or n)
 * records of 16 words, d then (1+d)^-1 * 2^256 mod n. nonces: n*32 bytes k
 * (test entry point) or NULL to derive them on the device from seed (8
 * words) as cuda/sm2_gpu_sm3.cuh says. *nbad gets the number of items whose
 * nonce gave r = 0, r + k = n or s = 0, or met kG's exceptional case
 * (cuda/sm2_gpu_point.cuh) (their 64 bytes are zero). */
FS2_CUDA_HIDDEN int fs2_cuda_sign(fs2_cuda *c, unsigned char *sigs, const uint32_t *keys, size_t nkeys,
                                  const unsigned char *digests, const unsigned char *nonces, const uint32_t seed[8],
                                  size_t n, size_t *nbad, double *kernel_s);

/* Verify n (digest, r||s) pairs; pubs: npubs (1 or n) records of 16 words
 * (x then y of validated points). results[i] = 1 or 0, or -1 for an item
 * the device leaves to the host (a fixed-base multiplication's exceptional
 * case: cuda/sm2_gpu_point.cuh). kw = 0: tP by a
 * window per item; kw in 2..16 (npubs = 1): by a fixed-base table of the
 * key of width kw, built first from kbases (its segment bases 2^(s kw) P,
 * fs2g segments of 16 words) or, with kbases NULL, the table the last such
 * call built (the caller knows it is of the same key and width). */
FS2_CUDA_HIDDEN int fs2_cuda_verify(fs2_cuda *c, int *results, const uint32_t *pubs, size_t npubs,
                                    const unsigned char *digests, const unsigned char *sigs, size_t n, int kw,
                                    const uint32_t *kbases, double *kernel_s);

/* P = dG for n private keys d (n*32 bytes, each already checked to be in
 * [1, n-2]) into n*65 bytes 04||x||y. *nbad gets the number of keys the
 * device left to the host (their 65 bytes are 04 and zeros): kG's
 * exceptional case (cuda/sm2_gpu_point.cuh), about 2^-240 of the keys. */
FS2_CUDA_HIDDEN int fs2_cuda_keygen(fs2_cuda *c, unsigned char *pubs, const unsigned char *privs, size_t n,
                                    size_t *nbad, double *kernel_s);

#ifdef __cplusplus
}
#endif
#endif
