/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 compression functions of every backend (GB/T 32905 5.3), scalar and
 * multi-buffer. The backend tables (src/backend_*.c) point at these; the
 * hash, the KDF and the batch hashing API reach them through the selected
 * backend only.
 */
#ifndef FS2_SM3_IMPL_H
#define FS2_SM3_IMPL_H

#include "../internal.h"

/* One lane: state[0] over blocks[0] (the generic backend's lanes). */
FS2_HIDDEN void fs2_sm3_compress_lanes1(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks);

#if defined(__x86_64__)
/* x86-64 (src/sm3/sm3_x86.c): scalar compression for the x86 backends,
 * 8 lanes in AVX2, 16 lanes in AVX-512F. */
FS2_HIDDEN void fs2_sm3_compress_x86(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
FS2_HIDDEN void fs2_sm3_compress_x8_avx2(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks);
FS2_HIDDEN void fs2_sm3_compress_x16_avx512(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks);
#endif

#if defined(__aarch64__)
/* AArch64 (src/sm3/sm3_aarch64.c): the ARMv8.2 SM3 instructions for one
 * stream (only when HWCAP_SM3 is set; also as a one-lane multi-buffer
 * function), and 4 lanes in baseline NEON. */
#define FS2_SM3_NEON_LANES 4
FS2_HIDDEN void fs2_sm3_compress_armv8_sm3(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
FS2_HIDDEN void fs2_sm3_compress_lanes1_armv8_sm3(uint32_t (*state)[8], const unsigned char *const *blocks,
                                                  size_t nblocks);
FS2_HIDDEN void fs2_sm3_compress_x4_neon(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks);
#endif

#endif
