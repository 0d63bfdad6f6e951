/* SPDX-License-Identifier: Apache-2.0 */
/* Digital signatures, GB/T 32918.2-2016 clauses 6 (sign) and 7 (verify). */
#include "protocol/protocol.h"

/* e (32 bytes) as an integer mod n. */
static void digest_mod_n(fs2_sc *r, const unsigned char e[32])
{
    uint64_t t[4];
    fs2_u256_from_be(t, e);
    fs2_sc_reduce(r, t);
}

int fs2_sign_finish(unsigned char sig[64], const fs2_sc *dinv, const unsigned char e[32], const uint64_t k[4],
                    const fs2_affine *c)
{
    fs2_sc ee, x1, r, kr, s, kk;
    /* A5: r = (e + x1) mod n */
    digest_mod_n(&ee, e);
    fs2_sc_reduce(&x1, c->x);
    fs2_sc_add(&r, &ee, &x1);
    /* A6: s = ((1 + d)^-1 (k + r) - r) mod n; one Montgomery product with
     * the cached (1 + d)^-1 * 2^256 gives the plain product. */
    memcpy(kk.v, k, 32);
    fs2_sc_add(&kr, &kk, &r);
    fs2_sc_mont_mul(&s, dinv, &kr);
    fs2_sc_sub(&s, &s, &r);
    /* r = 0, r + k = n (kr = 0) or s = 0 need another k. Public outcome:
     * r and s are published; a rejected k is never used. */
    uint64_t bad = fs2_is_zero_mask4(r.v) | fs2_is_zero_mask4(kr.v) | fs2_is_zero_mask4(s.v);
    fs2_declassify(&bad, sizeof bad);
    fs2_declassify(&r, sizeof r);
    fs2_declassify(&s, sizeof s);
    fs2_wipe(&kr, sizeof kr);
    fs2_wipe(&kk, sizeof kk);
    if (bad) {
        memset(sig, 0, 64);
        return FASTSM2_ERR_SCALAR;
    }
    fs2_u256_to_be(sig, r.v);
    fs2_u256_to_be(sig + 32, s.v);
    return FASTSM2_OK;
}

int fs2_sign_core(unsigned char sig[64], const fs2_priv *key, const unsigned char e[32], const uint64_t k[4])
{
    fs2_affine c;
    /* A4: (x1, y1) = [k]G */
    fs2_ec()->mul_base(&c, k);
    int ret = fs2_sign_finish(sig, &key->dinv_m, e, k, &c);
    fs2_wipe(&c, sizeof c);
    return ret;
}

int fastsm2_sign_digest(unsigned char sig[64], const fastsm2_privkey *key, const unsigned char e[32])
{
    const fs2_priv *k = fs2_priv_get(key);
    uint64_t nonce[4];
    if (!sig)
        return FASTSM2_ERR_ARG;
    if (!k || !e) {
        memset(sig, 0, 64);
        return FASTSM2_ERR_ARG;
    }
    for (int tries = 0; tries < 16; tries++) {
        /* A3: k in [1, n-1] from the OS CSPRNG */
        if (!fs2_random_scalar(nonce, 0)) {
            memset(sig, 0, 64);
            return FASTSM2_ERR_RANDOM;
        }
        int ret = fs2_sign_core(sig, k, e, nonce);
        fs2_wipe(nonce, sizeof nonce);
        if (ret == FASTSM2_OK)
            return ret;
    }
    memset(sig, 0, 64);
    return FASTSM2_ERR_RANDOM;
}

int fastsm2_sign_digest_with_nonce(unsigned char sig[64], const fastsm2_privkey *key, const unsigned char e[32],
                                   const unsigned char kb[32])
{
    const fs2_priv *k = fs2_priv_get(key);
    uint64_t nonce[4];
    if (!sig)
        return FASTSM2_ERR_ARG;
    if (!k || !e || !kb) {
        memset(sig, 0, 64);
        return FASTSM2_ERR_ARG;
    }
    uint64_t ok = fs2_scalar_load_check(nonce, kb, 0);
    fs2_declassify(&ok, sizeof ok);
    if (!ok) {
        fs2_wipe(nonce, sizeof nonce);
        memset(sig, 0, 64);
        return FASTSM2_ERR_SCALAR;
    }
    int ret = fs2_sign_core(sig, k, e, nonce);
    fs2_wipe(nonce, sizeof nonce);
    return ret;
}

/* A1-A2: e = SM3(Z_A || M) */
static int message_digest(unsigned char e[32], const fs2_pubpart *p, const void *id, size_t idlen, const void *msg,
                          size_t msglen)
{
    unsigned char z[32];
    fastsm2_sm3_ctx c;
    int ret = fs2_pubpart_z(z, p, id, idlen);
    if (ret != FASTSM2_OK)
        return ret;
    fastsm2_sm3_init(&c);
    fastsm2_sm3_update(&c, z, 32);
    fastsm2_sm3_update(&c, msg, msglen);
    fastsm2_sm3_final(e, &c);
    return FASTSM2_OK;
}

int fastsm2_sign(unsigned char sig[64], const fastsm2_privkey *key, const void *id, size_t idlen, const void *msg,
                 size_t msglen)
{
    const fs2_priv *k = fs2_priv_get(key);
    unsigned char e[32];
    if (!sig)
        return FASTSM2_ERR_ARG;
    if (!k || (!msg && msglen)) {
        memset(sig, 0, 64);
        return FASTSM2_ERR_ARG;
    }
    int ret = message_digest(e, &k->pub, id, idlen, msg, msglen);
    if (ret != FASTSM2_OK) {
        memset(sig, 0, 64);
        return ret;
    }
    return fastsm2_sign_digest(sig, key, e);
}

int fs2_verify_prepare(uint64_t s[4], uint64_t t[4], uint64_t v[4], const unsigned char e[32],
                       const unsigned char sig[64])
{
    uint64_t r[4];
    /* B1, B2: r, s in [1, n-1] */
    if (!fs2_scalar_load_check(r, sig, 0) || !fs2_scalar_load_check(s, sig + 32, 0))
        return FASTSM2_ERR_SIG_RANGE;
    /* B5: t = (r + s) mod n, t != 0 */
    fs2_sc rs, ss, tt, ee, vv;
    memcpy(rs.v, r, 32);
    memcpy(ss.v, s, 32);
    fs2_sc_add(&tt, &rs, &ss);
    if (fs2_is_zero_mask4(tt.v))
        return FASTSM2_ERR_SIG_RANGE;
    /* B6-B7: (x1, y1) = [s]G + [t]P_A; R = (e + x1) mod n == r  <=>
     * x1 mod n == (r - e) mod n */
    digest_mod_n(&ee, e);
    fs2_sc_sub(&vv, &rs, &ee);
    memcpy(t, tt.v, 32);
    memcpy(v, vv.v, 32);
    return FASTSM2_OK;
}

int fastsm2_verify_digest_status(const fastsm2_pubkey *pub, const unsigned char e[32], const unsigned char sig[64])
{
    const fs2_pub *p = fs2_pub_get(pub);
    if (!p || !e || !sig)
        return FASTSM2_ERR_ARG;
    uint64_t s[4], t[4], v[4];
    int ret = fs2_verify_prepare(s, t, v, e, sig);
    if (ret != FASTSM2_OK)
        return ret;
    return fs2_ec()->mul_public_cmp_x_var(s, t, &p->pub.pt, fs2_pub_tables(p), v) ? FASTSM2_OK
                                                                                  : FASTSM2_ERR_BAD_SIGNATURE;
}

int fastsm2_verify_status(const fastsm2_pubkey *pub, const void *id, size_t idlen, const void *msg, size_t msglen,
                          const unsigned char sig[64])
{
    const fs2_pub *p = fs2_pub_get(pub);
    unsigned char e[32];
    if (!p || !sig || (!msg && msglen))
        return FASTSM2_ERR_ARG;
    /* B3-B4: e' = SM3(Z_A || M') */
    int ret = message_digest(e, &p->pub, id, idlen, msg, msglen);
    if (ret != FASTSM2_OK)
        return ret;
    return fastsm2_verify_digest_status(pub, e, sig);
}

int fastsm2_verify(const fastsm2_pubkey *pub, const void *id, size_t idlen, const void *msg, size_t msglen,
                   const unsigned char sig[64])
{
    return fastsm2_verify_status(pub, id, idlen, msg, msglen, sig) == FASTSM2_OK;
}

int fastsm2_verify_digest(const fastsm2_pubkey *pub, const unsigned char e[32], const unsigned char sig[64])
{
    return fastsm2_verify_digest_status(pub, e, sig) == FASTSM2_OK;
}
