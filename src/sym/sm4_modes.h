/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the SM4 modes of operation (src/sym/sm4.c, sm4_gcm.c, sm4_ccm.c,
 * sm4_xts.c: the public SM4 API of include/fastsm2.h) share: the key
 * object's check, counters, and zeroing outputs on failure. The block
 * cipher and GHASH come from the SM4 table in use (src/sm4/sm4_ops.h).
 */
#ifndef FS2_SM4_MODES_H
#define FS2_SM4_MODES_H

#include "ct.h"
#include "internal.h"
#include "sm4/sm4_ops.h"

_Static_assert(sizeof(fs2_sm4_key) <= sizeof(fastsm2_sm4_key), "fastsm2_sm4_key too small");
_Static_assert(_Alignof(fs2_sm4_key) <= _Alignof(fastsm2_sm4_key), "fastsm2_sm4_key under-aligned");

/* The key inside a public key object, or NULL if key is NULL or was not
 * made by fastsm2_sm4_key_init (or was cleared). */
static inline const fs2_sm4_key *fs2_sm4_key_get(const fastsm2_sm4_key *key)
{
    if (key == NULL)
        return NULL;
    const fs2_sm4_key *k = (const fs2_sm4_key *)key;
    /* Public by design: the object's tag (a constant, not key material). */
    fs2_declassify(&k->check, sizeof k->check);
    return k->check == FS2_SM4_KEY_CHECK ? k : NULL;
}

/* memset(p, 0, n) when p is not NULL: the outputs of a failed call. */
static inline void fs2_sm4_zero(void *p, size_t n)
{
    if (p != NULL && n != 0)
        memset(p, 0, n);
}

/* ctr += m as a 128-bit big-endian number (carry128) or in its last 32
 * bits only (GCM's inc32, SP 800-38D 6.2). */
static inline void fs2_sm4_ctr_add(unsigned char ctr[16], uint64_t m, int carry128)
{
    if (!carry128) {
        fs2_store32_be(ctr + 12, fs2_load32_be(ctr + 12) + (uint32_t)m);
        return;
    }
    uint64_t lo = fs2_load64_be(ctr + 8), nlo = lo + m;
    fs2_store64_be(ctr + 8, nlo);
    if (nlo < lo)
        fs2_store64_be(ctr, fs2_load64_be(ctr) + 1);
}

/* CTR over n whole blocks from counter block ctr, which ends at the next
 * unused value. With carry128 the counter is public (CTR's and CCM's) and
 * the table's ctr32 slot, which wraps the last 32 bits alone, is called in
 * runs that do not wrap them, the carry added here; GCM's (carry128 0)
 * wraps in the slot. */
static inline void fs2_sm4_ctr_blocks(const fs2_sm4_ops *t, const uint32_t rk[32], unsigned char *out,
                                      const unsigned char *in, size_t n, unsigned char ctr[16], int carry128)
{
    while (n > 0) {
        size_t m = n;
        if (carry128) {
            uint64_t room = ((uint64_t)1 << 32) - fs2_load32_be(ctr + 12);
            if ((uint64_t)m > room)
                m = (size_t)room;
        }
        t->ctr32(rk, out, in, m, ctr);
        fs2_sm4_ctr_add(ctr, m, carry128);
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
}

/* The key stream block E(ctr) into ks, and ctr advanced by one. */
static inline void fs2_sm4_ctr_block(const fs2_sm4_ops *t, const uint32_t rk[32], unsigned char ks[16],
                                     unsigned char ctr[16], int carry128)
{
    memset(ks, 0, 16);
    t->ctr32(rk, ks, ks, 1, ctr);
    fs2_sm4_ctr_add(ctr, 1, carry128);
}

/* PKCS#7 padding of the last block (RFC 5652 6.3), in constant time:
 * returns 1 if it is well formed (its last byte p in 1..16 and the last p
 * bytes equal to p), and *padlen = p. Neither is declassified here. */
static inline uint32_t fs2_sm4_pkcs7_ok(const unsigned char last[16], uint32_t *padlen)
{
    uint32_t p = last[15], bad = 0;
    bad |= ((p - 1u) >> 8) & 1u;  /* p == 0 */
    bad |= ((16u - p) >> 8) & 1u; /* p > 16 */
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t in_pad = ((i - p) >> 8) & 1u; /* i < p */
        uint32_t diff = last[15 - i] ^ p;
        bad |= fs2_ct_mask_u32(in_pad) & ((0u - diff) >> 31);
    }
    *padlen = p;
    return bad ^ 1u;
}

#endif
