/* SPDX-License-Identifier: Apache-2.0 */
/* Internal helpers shared by every layer. Nothing here is exported. */
#ifndef FS2_INTERNAL_H
#define FS2_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fastsm2.h"

#define FS2_HIDDEN __attribute__((visibility("hidden")))

/* Wipe memory in a way the compiler will not remove. */
FS2_HIDDEN void fs2_wipe(void *p, size_t n);

/* Constant-time equality of two byte strings: 1 if equal, else 0. */
FS2_HIDDEN int fs2_ct_memeq(const void *a, const void *b, size_t n);

/* Mark a secret-derived but public-by-design value (a validity flag, the
 * C3 outcome) as defined for the valgrind constant-time test; no-op
 * otherwise. Every call site says why the value is public. */
FS2_HIDDEN void fs2_declassify(const void *p, size_t n);
/* The ctime test's switch: when set, fs2_classify marks memory undefined
 * (fs2_random_bytes calls it on every draw). */
FS2_HIDDEN extern int fs2_ctime_classify_random;
FS2_HIDDEN void fs2_classify(const void *p, size_t n);

/* Fill buf with n bytes from the library's generator (src/rng.c: per-thread
 * ChaCha20 with fast key erasure, seeded and reseeded from the OS, fresh
 * after fork) and mark them secret for the ctime test. 1 or 0. */
FS2_HIDDEN int fs2_random_bytes(void *buf, size_t n);
/* Fill buf with n bytes straight from the OS CSPRNG (src/util.c:
 * getrandom, else getentropy or arc4random_buf, else /dev/urandom). 1 or 0. */
FS2_HIDDEN int fs2_random_os(void *buf, size_t n);
/* ChaCha20 (RFC 8439) key stream: nblocks 64-byte blocks from the 64-bit
 * block counter `counter` (words 12-13), nonce 0. */
FS2_HIDDEN void fs2_chacha20_blocks(unsigned char *out, const uint32_t key[8], uint64_t counter, size_t nblocks);

/* Run fn(ctx, c) for every chunk c in [0, nchunks) on up to `threads`
 * threads, the caller's among them, chunks claimed one at a time; returns
 * when all have run. The helper threads are kept for later calls
 * (src/pool.c). */
typedef void (*fs2_chunk_fn)(void *ctx, size_t chunk);
FS2_HIDDEN void fs2_pool_run(fs2_chunk_fn fn, void *ctx, size_t nchunks, unsigned threads);

/* Little-endian 32-bit load (ChaCha20 keys). */
static inline uint32_t fs2_load32_le(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Big-endian loads/stores. */
static inline uint32_t fs2_load32_be(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline void fs2_store32_be(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}
static inline uint64_t fs2_load64_be(const unsigned char *p)
{
    return ((uint64_t)fs2_load32_be(p) << 32) | fs2_load32_be(p + 4);
}
static inline void fs2_store64_be(unsigned char *p, uint64_t v)
{
    fs2_store32_be(p, (uint32_t)(v >> 32));
    fs2_store32_be(p + 4, (uint32_t)v);
}

/* 256-bit integers as 4 little-endian 64-bit limbs <-> 32 bytes big-endian. */
static inline void fs2_u256_from_be(uint64_t r[4], const unsigned char b[32])
{
    for (int i = 0; i < 4; i++)
        r[i] = fs2_load64_be(b + 24 - 8 * i);
}
static inline void fs2_u256_to_be(unsigned char b[32], const uint64_t a[4])
{
    for (int i = 0; i < 4; i++)
        fs2_store64_be(b + 24 - 8 * i, a[i]);
}

#endif
