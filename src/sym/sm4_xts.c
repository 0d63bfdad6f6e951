/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-XTS, IEEE 1619-2018 and GB/T 17964-2021, with GB/T 32907 as the
 * block cipher (include/fastsm2.h): one data unit per call, ciphertext
 * stealing (IEEE 1619 5.3.2 / 5.4.2) for a length that is not a multiple
 * of 16. The two standards differ only in the order of the tweak's
 * multiplication by alpha (the table's xts slot takes it).
 */
#include "sm4_modes.h"
#include "sym.h"

#define XTS_MAX_LEN ((size_t)1 << 24)

static int xts(unsigned char *out, const fastsm2_sm4_key *key1, const fastsm2_sm4_key *key2, int standard,
               const unsigned char tweak[16], const unsigned char *in, size_t len, int enc)
{
    const fs2_sm4_key *k1 = fs2_sm4_key_get(key1), *k2 = fs2_sm4_key_get(key2);
    if (out == NULL)
        return FASTSM2_ERR_ARG;
    if (k1 == NULL || k2 == NULL || tweak == NULL || in == NULL ||
        (standard != FASTSM2_SM4_XTS_GB && standard != FASTSM2_SM4_XTS_IEEE)) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_ARG;
    }
    if (len < 16 || len > XTS_MAX_LEN) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_LENGTH;
    }
    if (enc) {
        /* OpenSSL's rule (after IEEE 1619 5.1's advice): no encryption
         * under two equal keys. Public by design: the outcome (the
         * status). */
        int same = fs2_ct_memeq(k1->rk, k2->rk, sizeof k1->rk);
        fs2_declassify(&same, sizeof same);
        if (same) {
            fs2_sm4_zero(out, len);
            return FASTSM2_ERR_ARG;
        }
    }
    const fs2_sm4_ops *t = fs2_sm4();
    const uint32_t *rk = enc ? k1->rk : k1->rkd;
    int std = standard == FASTSM2_SM4_XTS_IEEE ? FS2_XTS_IEEE : FS2_XTS_GB;
    unsigned char tw[16], tw_last[16], pp[16], cc[16];
    size_t m = len / 16, r = len % 16;
    t->blocks(k2->rk, tw, tweak, 1); /* T = E_K2(i) */
    if (r == 0) {
        t->xts(rk, out, in, m, tw, std);
    } else {
        unsigned char *prev = out + 16 * (m - 1), *tail = out + 16 * m;
        t->xts(rk, out, in, m - 1, tw, std);
        /* the last whole block and the r bytes after it */
        memcpy(pp, in + 16 * (m - 1), 16);
        memcpy(cc, in + 16 * m, r);
        if (enc) {
            /* CC = E_T(m-1)(P(m-1)); C(m) = CC[0, r); C(m-1) = E_T(m)(P(m) || CC[r, 16)) */
            t->xts(rk, pp, pp, 1, tw, std);
            memcpy(cc + r, pp + r, 16 - r);
            memcpy(tail, pp, r);
            t->xts(rk, prev, cc, 1, tw, std);
        } else {
            /* PP = D_T(m)(C(m-1)); P(m) = PP[0, r); P(m-1) = D_T(m-1)(C(m) || PP[r, 16)) */
            memcpy(tw_last, tw, 16);
            fs2_xts_mul_alpha(tw, std);
            t->xts(rk, pp, pp, 1, tw, std);
            memcpy(cc + r, pp + r, 16 - r);
            memcpy(tail, pp, r);
            t->xts(rk, prev, cc, 1, tw_last, std);
        }
    }
    fs2_wipe(tw, sizeof tw);
    fs2_wipe(tw_last, sizeof tw_last);
    fs2_wipe(pp, sizeof pp);
    fs2_wipe(cc, sizeof cc);
    return FASTSM2_OK;
}

int fastsm2_sm4_xts_encrypt(unsigned char *out, const fastsm2_sm4_key *key1, const fastsm2_sm4_key *key2, int standard,
                            const unsigned char tweak[16], const unsigned char *in, size_t len)
{
    return xts(out, key1, key2, standard, tweak, in, len, 1);
}

int fastsm2_sm4_xts_decrypt(unsigned char *out, const fastsm2_sm4_key *key1, const fastsm2_sm4_key *key2, int standard,
                            const unsigned char tweak[16], const unsigned char *in, size_t len)
{
    return xts(out, key1, key2, standard, tweak, in, len, 0);
}
