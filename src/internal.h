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

/* ------------------------------------------------------------------ */
/* SM3 internals (src/sm3)                                              */
/* ------------------------------------------------------------------ */

/* Portable SM3 compression of nblocks 64-byte blocks into state. */
FS2_HIDDEN void fs2_sm3_compress_generic(uint32_t state[8], const unsigned char *blocks, size_t nblocks);

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

/* The KDF as a stream (src/sm3/sm3_kdf.c): Z is absorbed once at init (its
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

/* fastsm2_encrypt_stream_init with a caller's k (32 bytes; NULL: drawn),
 * for known-answer tests. */
FS2_HIDDEN int fs2_encrypt_stream_init_nonce(fastsm2_encrypt_stream *s, unsigned char *prefix, size_t *prefixlen,
                                             uint64_t *c3_offset, const fastsm2_pubkey *pub, uint64_t msglen, int flags,
                                             const unsigned char *k);

/* ------------------------------------------------------------------ */
/* Encoding internals (src/encoding). Byte-level: no arithmetic.         */
/* ------------------------------------------------------------------ */

/* Strict DER of an SM2 signature: SEQUENCE { INTEGER r, INTEGER s }.
 * Decoding rejects non-minimal or negative INTEGERs, values wider than 256
 * bits, indefinite or non-minimal lengths and trailing bytes
 * (FASTSM2_ERR_DER). No range check against n here. */
FS2_HIDDEN int fs2_sig_der_encode(unsigned char *out, size_t *outlen, const unsigned char r[32],
                                  const unsigned char s[32]);
FS2_HIDDEN int fs2_sig_der_decode(unsigned char r[32], unsigned char s[32], const unsigned char *der, size_t derlen);

/* SM2 ciphertexts (src/encoding/ciphertext.c): where C1, C3 and C2 of GB/T
 * 32918.4 clause 6.1 lie in each layout the library speaks (flags: raw
 * C1C3C2, raw C1C2C3 (FASTSM2_CT_RAW [| FASTSM2_CT_C1C2C3]), or GM/T 0009
 * DER SEQUENCE { INTEGER x, INTEGER y, OCTET STRING C3, OCTET STRING C2 }).
 * Offsets count from the ciphertext's first byte; C2 starts right after
 * the prefix (c2_off is its length, at most FASTSM2_CT_PREFIX_MAX). */
typedef struct {
    unsigned char c1[65]; /* C1 as a SEC1 point: 04||x||y, or 02/03||x (raw, read) */
    size_t c1len;         /* 65 or 33 */
    uint64_t c3_off;
    uint64_t c2_off;
    uint64_t c2_len;
    uint64_t total; /* the whole ciphertext */
} fs2_ct_layout;
/* Bytes of a ciphertext holding c2len bytes of C2: exact for raw, an upper
 * bound for DER (its INTEGERs may come out shorter); 0 when too large. */
FS2_HIDDEN size_t fs2_ct_max_size(size_t c2len, int flags);
/* Write the prefix for C1 = (x1, y1) and c2len bytes of C2 into
 * out[0..cap): C1, the DER headers, and C3 as 32 zero bytes where it comes
 * before C2; fill *l. The caller puts C2 at l->c2_off and C3 at
 * l->c3_off. Returns the prefix length, or 0 when it does not fit. */
FS2_HIDDEN size_t fs2_ct_write_prefix(fs2_ct_layout *l, unsigned char *out, size_t cap, const unsigned char x1[32],
                                      const unsigned char y1[32], uint64_t c2len, int flags);
/* The layout of a ciphertext of ctlen bytes from its first prefixlen bytes
 * (at least min(ctlen, FASTSM2_CT_PREFIX_MAX)). Strict: DER with definite
 * lengths in their shortest form, minimal non-negative INTEGERs of at most
 * 256 bits, a C3 of 32 bytes, lengths adding up to ctlen (so, re-encoded,
 * the same bytes). FASTSM2_OK, or FASTSM2_ERR_CIPHERTEXT (*l zeroed). C2
 * may be empty, and C1 is not checked against the curve: both are the
 * protocol's to refuse. */
FS2_HIDDEN int fs2_ct_read_prefix(fs2_ct_layout *l, const unsigned char *prefix, size_t prefixlen, uint64_t ctlen,
                                  int flags);

#endif
