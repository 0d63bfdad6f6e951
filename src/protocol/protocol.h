/* SPDX-License-Identifier: Apache-2.0 */
/* Internal layout of the public opaque objects, and helpers shared by the
 * protocol files (keys, signatures, encryption, key exchange). */
#ifndef FS2_PROTOCOL_H
#define FS2_PROTOCOL_H

#include "backend/backend.h"
#include "codec/ciphertext.h"
#include "field/scalar.h"
#include "hash/kdf.h"

#define FS2_PRIV_MAGIC 0x66733270726976ULL /* "fs2priv" */
#define FS2_PUB_MAGIC  0x6673327075626bULL /* "fs2pubk" */
#define FS2_KX_MAGIC   0x6673326b785f6dULL /* "fs2kx_m" */

/* Public half shared by both key objects: the point and Z_A for its ID.
 * Made with the key (and by set_id); never written after. */
typedef struct {
    fs2_affine pt;
    unsigned char za[32];
    uint32_t idlen; /* the ID whose Z_A is cached: 0..8191 bytes; id[]
                     * holds it if idlen <= FASTSM2_CACHED_ID_MAX */
    unsigned char id[FASTSM2_CACHED_ID_MAX];
} fs2_pubpart;

typedef struct {
    uint64_t magic;
    fs2_pubpart pub;
    /* P and 2^128 P tables for the EC slots (src/ec/ec.h), made only by
     * fastsm2_pubkey_precompute: tab_state 0 none, 1 being made, 2 ready,
     * only through the compilers' __atomic built-ins, so that threads
     * using the key meanwhile read either no tables or complete ones. */
    uint32_t tab_state;
    fs2_pubtab tab;
} fs2_pub;

typedef struct {
    uint64_t magic;
    fs2_pubpart pub;
    uint64_t d[4]; /* secret, canonical */
    /* Secret: (1 + d)^-1 * 2^256 mod n (Montgomery form), which signing
     * needs; made with the key, alongside P = dG. */
    fs2_sc dinv_m;
} fs2_priv;

_Static_assert(sizeof(fs2_pub) <= sizeof(fastsm2_pubkey), "fastsm2_pubkey too small");
_Static_assert(sizeof(fs2_priv) <= sizeof(fastsm2_privkey), "fastsm2_privkey too small");

/* Checked access to the objects: NULL unless made by the library. The
 * public metadata is declassified for the constant-time test. */
FS2_HIDDEN const fs2_priv *fs2_priv_get(const fastsm2_privkey *key);
FS2_HIDDEN const fs2_pub *fs2_pub_get(const fastsm2_pubkey *pub);

/* The cached tables of a public key for the EC table's slots, or NULL
 * when fastsm2_pubkey_precompute has not made them (yet). Reads only. */
FS2_HIDDEN const fs2_pubtab *fs2_pub_tables(const fs2_pub *p);

/* Verification's checks and scalars (GB/T 32918.2 clause 7.1 B1, B2, B5,
 * B7) from a digest e and a raw signature r || s: s, t = (r + s) mod n and
 * v = (r - e) mod n, so that the signature holds iff x(sG + tP) mod n = v.
 * FASTSM2_OK, or FASTSM2_ERR_SIG_RANGE (r or s outside [1, n-1], or t = 0). */
FS2_HIDDEN int fs2_verify_prepare(uint64_t s[4], uint64_t t[4], uint64_t v[4], const unsigned char e[32],
                                  const unsigned char sig[64]);

/* Z_A for (pub, id); id NULL (idlen 0): the cached one; id non-NULL with
 * idlen 0: the empty ID. FASTSM2_ERR_ID for an ID over 8191 bytes,
 * FASTSM2_ERR_ARG for id NULL with idlen != 0. */
FS2_HIDDEN int fs2_pubpart_z(unsigned char z[32], const fs2_pubpart *p, const void *id, size_t idlen);

/* Set the ID of a public part and make its Z_A. */
FS2_HIDDEN int fs2_pubpart_set_id(fs2_pubpart *p, const void *id, size_t idlen);

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
FS2_HIDDEN int fs2_sign_core(unsigned char sig[64], const fs2_priv *key, const unsigned char e[32],
                             const uint64_t k[4]);

/* fastsm2_encrypt_stream_init with a caller's k (32 bytes; NULL: drawn),
 * for known-answer tests (src/protocol/encrypt.c). */
FS2_HIDDEN int fs2_encrypt_stream_init_nonce(fastsm2_encrypt_stream *s, unsigned char *prefix, size_t *prefixlen,
                                             uint64_t *c3_offset, const fastsm2_pubkey *pub, uint64_t msglen, int flags,
                                             const unsigned char *k);

#endif
