/* SPDX-License-Identifier: Apache-2.0 */
/* Internal layout of the public opaque objects, and helpers shared by the
 * protocol files (keys, signatures, encryption, key exchange). */
#ifndef FS2_PROTOCOL_H
#define FS2_PROTOCOL_H

#include "backend.h"
#include "field/scalar.h"

#define FS2_PRIV_MAGIC 0x66733270726976ULL /* "fs2priv" */
#define FS2_PUB_MAGIC 0x6673327075626bULL  /* "fs2pubk" */
#define FS2_KX_MAGIC 0x6673326b785f6dULL   /* "fs2kx_m" */

/* Public half shared by both key objects: the point and the cached Z_A. */
typedef struct {
    fs2_affine pt;
    unsigned char za[32];
    /* za: 0 not made (made at its first use, fs2_pubpart_z, so that a key
     * made only to decrypt never hashes it), 1 being written, 2 ready.
     * Only through the compilers' __atomic built-ins. */
    uint32_t za_state;
    uint32_t idlen; /* the ID whose Z_A is cached: 1..8191 bytes; id[]
                     * holds it if idlen <= FASTSM2_CACHED_ID_MAX */
    unsigned char id[FASTSM2_CACHED_ID_MAX];
} fs2_pubpart;

typedef struct {
    uint64_t magic;
    fs2_pubpart pub;
    /* P and 2^128 P tables for the EC slots (src/ec/ec.h), made on the
     * key's second use (fs2_pub_tables): tab_state 0 none, 1 being made,
     * 2 ready; uses counts the uses while none. Both only through the
     * compilers' __atomic built-ins. */
    uint32_t tab_state, uses;
    fs2_pubtab tab;
} fs2_pub;

typedef struct {
    uint64_t magic;
    fs2_pubpart pub;
    uint64_t d[4]; /* secret, canonical */
    /* Secret: (1 + d)^-1 * 2^256 mod n (Montgomery form), which signing
     * needs. Made by the key's first signature (fs2_priv_dinv), not when
     * the key is made, so that a key that only decrypts or exchanges keys
     * never pays for it. dinv_state: 0 not made, 1 being written, 2 ready;
     * only through the compilers' __atomic built-ins. */
    fs2_sc dinv_m;
    uint32_t dinv_state;
} fs2_priv;

_Static_assert(sizeof(fs2_pub) <= sizeof(fastsm2_pubkey), "fastsm2_pubkey too small");
_Static_assert(sizeof(fs2_priv) <= sizeof(fastsm2_privkey), "fastsm2_privkey too small");

/* Checked access to the objects: NULL unless made by the library. The
 * public metadata is declassified for the constant-time test. */
FS2_HIDDEN const fs2_priv *fs2_priv_get(const fastsm2_privkey *key);
FS2_HIDDEN const fs2_pub *fs2_pub_get(const fastsm2_pubkey *pub);

/* The signing inverse (1 + d)^-1 * 2^256 mod n of a key:
 *  fs2_priv_dinv_cached  the key's cached copy, or NULL while not made;
 *  fs2_priv_dinv_store   caches v (computed by the caller) unless another
 *                        thread has claimed the slot first;
 *  fs2_priv_dinv         the cached copy, or else computes it into *tmp
 *                        (the caller wipes it), caches it and returns tmp. */
FS2_HIDDEN const fs2_sc *fs2_priv_dinv_cached(const fs2_priv *k);
FS2_HIDDEN void fs2_priv_dinv_store(const fs2_priv *k, const fs2_sc *v);
FS2_HIDDEN const fs2_sc *fs2_priv_dinv(const fs2_priv *k, fs2_sc *tmp);

/* The cached tables of a public key for the EC table's slots, or
 * NULL while they are not made. The first use of a key returns NULL (a
 * one-off verification runs as fast without them); the second makes them
 * (about half a verification's time) in the calling thread, and every
 * later use gets them. Thread-safe: one thread claims the making, others
 * meanwhile get NULL, and the tables are published by a release store. */
FS2_HIDDEN const fs2_pubtab *fs2_pub_tables(const fs2_pub *p);

/* Verification's checks and scalars (GB/T 32918.2 clause 7.1 B1, B2, B5,
 * B7) from a digest e and a raw signature r || s: s, t = (r + s) mod n and
 * v = (r - e) mod n, so that the signature holds iff x(sG + tP) mod n = v.
 * FASTSM2_OK, or FASTSM2_ERR_SIG_RANGE (r or s outside [1, n-1], or t = 0). */
FS2_HIDDEN int fs2_verify_prepare(uint64_t s[4], uint64_t t[4], uint64_t v[4], const unsigned char e[32],
                                  const unsigned char sig[64]);

/* Z_A for (pub, id); id NULL: the cached one. FASTSM2_ERR_ID for bad lengths. */
FS2_HIDDEN int fs2_pubpart_z(unsigned char z[32], const fs2_pubpart *p, const void *id, size_t idlen);

/* Set the cached ID of a public part (its Z_A is made at its first use,
 * or at once for an ID too long to keep). */
FS2_HIDDEN int fs2_pubpart_set_id(fs2_pubpart *p, const void *id, size_t idlen);

/* *dst = *src while other threads may be making src's Z_A: dst gets it only
 * if it is ready, else makes its own when needed. */
FS2_HIDDEN void fs2_pubpart_copy(fs2_pubpart *dst, const fs2_pubpart *src);

/* A uniform scalar in [1, n - 1 - extra] from the OS CSPRNG (extra = 0 for
 * nonces, 1 for private keys). 1 or 0 if the OS failed. */
FS2_HIDDEN int fs2_random_scalar(uint64_t k[4], unsigned extra);

/* Load 32 big-endian bytes as a canonical integer; all-ones mask if it lies
 * in [1, n - 1 - extra]. Constant time. */
FS2_HIDDEN uint64_t fs2_scalar_load_check(uint64_t k[4], const unsigned char b[32], unsigned extra);

/* Load a SEC1 point (65 or 33 bytes) and validate it. */
FS2_HIDDEN int fs2_point_load(fs2_affine *r, const unsigned char *in, size_t inlen);
/* 65-byte 04||x||y */
FS2_HIDDEN void fs2_point_store(unsigned char out[65], const fs2_affine *p);

/* A5-A7 of a signature whose (x1, y1) = [k]G is c (from mul_base or
 * mul_base_batch): FASTSM2_OK, or FASTSM2_ERR_SCALAR when this k must be
 * replaced (r = 0, r + k = n or s = 0; sig zeroed). Constant time. */
FS2_HIDDEN int fs2_sign_finish(unsigned char sig[64], const fs2_sc *dinv, const unsigned char e[32],
                               const uint64_t k[4], const fs2_affine *c);
/* Sign e with nonce k (canonical, in [1, n-1]). FASTSM2_OK, or
 * FASTSM2_ERR_SCALAR when this k gives r = 0, r + k = n or s = 0. */
FS2_HIDDEN int fs2_sign_core(unsigned char sig[64], const fs2_priv *key, const unsigned char e[32], const uint64_t k[4]);

#endif
