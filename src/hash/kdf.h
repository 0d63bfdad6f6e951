/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM2 key derivation function (GB/T 32918.4 5.4.3), src/hash/sm3_kdf.c:
 * SM3 through the selected table (fs2_sm3(), src/backend/backend.h).
 */
#ifndef FS2_KDF_H
#define FS2_KDF_H

#include "internal.h"

/* KDF (GB/T 32918.4 5.4.3) XORed into a buffer: out[i] = in[i] ^ t[i] for
 * t = KDF(z, len); in == NULL writes t itself. out may equal in. Returns 1
 * if t had a non-zero byte, 0 if t was all zero (decided without branching
 * on t). */
FS2_HIDDEN int fs2_kdf_xor(unsigned char *out, const unsigned char *in, size_t len, const unsigned char *z,
                           size_t zlen);

/* The same with a choice of engine: FS2_KDF_LANES hashes the counter blocks
 * in the SM3 table's SIMD lanes (the default everywhere), FS2_KDF_SCALAR one
 * at a time with the SM3 table's one-stream compression (the yardstick for the
 * benchmark and the reference for the tests). Bit-identical results. */
#define FS2_KDF_SCALAR 0
#define FS2_KDF_LANES  1
FS2_HIDDEN int fs2_kdf_xor_ex(unsigned char *out, const unsigned char *in, size_t len, const unsigned char *z,
                              size_t zlen, int engine);

/* The KDF as a stream (src/hash/sm3_kdf.c): Z is absorbed once at init (its
 * whole 64-byte blocks compressed, its tail kept in a one- or two-block
 * template with the counter and the padding), then each counter block
 * costs one or two compressions from the saved chaining value, many
 * counters at once in the SIMD lanes. Output may be drawn in pieces of any
 * size; the concatenation equals one fs2_kdf_xor. Holds secrets: wipe. */
typedef struct {
    uint32_t base[8];        /* chaining value after Z's whole blocks */
    unsigned char tmpl[128]; /* Z's tail || ct || 80 00.. || bit length */
    uint32_t ctoff;          /* where ct sits in tmpl */
    uint32_t nblk;           /* 1 or 2 blocks per counter */
    uint32_t ct;             /* the next counter to hash */
    uint32_t kpos;           /* bytes of kbuf already used (32: none left) */
    unsigned char kbuf[32];  /* the current block of t */
    uint32_t acc;            /* OR of every byte of t handed out */
    int engine;              /* FS2_KDF_SCALAR or FS2_KDF_LANES */
} fs2_kdf_ctx;
FS2_HIDDEN void fs2_kdf_init(fs2_kdf_ctx *k, const unsigned char *z, size_t zlen, int engine);
/* out[i] = in[i] ^ t[i] for the next len bytes of t (in NULL: t itself). */
FS2_HIDDEN void fs2_kdf_stream(fs2_kdf_ctx *k, unsigned char *out, const unsigned char *in, size_t len);
/* 1 if some byte of t handed out so far was non-zero, else 0 (no branch). */
FS2_HIDDEN int fs2_kdf_nonzero(const fs2_kdf_ctx *k);

#endif
