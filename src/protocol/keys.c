/* SPDX-License-Identifier: Apache-2.0 */
/* Key pairs (GB/T 32918.1 6.1-6.2) and Z_A (GB/T 32918.2 5.5). */
#include "protocol/protocol.h"

#include <pthread.h>

const fs2_priv *fs2_priv_get(const fastsm2_privkey *key)
{
    if (!key)
        return NULL;
    const fs2_priv *k = (const fs2_priv *)key;
    /* Public by design: the object's tag and its public half. */
    fs2_declassify(&k->magic, sizeof k->magic);
    fs2_declassify(&k->pub, sizeof k->pub);
    return k->magic == FS2_PRIV_MAGIC ? k : NULL;
}

const fs2_pub *fs2_pub_get(const fastsm2_pubkey *pub)
{
    if (!pub)
        return NULL;
    const fs2_pub *p = (const fs2_pub *)pub;
    return p->magic == FS2_PUB_MAGIC ? p : NULL;
}

/* Four 32-byte rows, each under its name. */
/* clang-format off */
static const unsigned char CURVE_ABG[128] = {
    /* a */
    0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFC,
    /* b */
    0x28, 0xE9, 0xFA, 0x9E, 0x9D, 0x9F, 0x5E, 0x34, 0x4D, 0x5A, 0x9E, 0x4B, 0xCF, 0x65, 0x09, 0xA7,
    0xF3, 0x97, 0x89, 0xF5, 0x15, 0xAB, 0x8F, 0x92, 0xDD, 0xBC, 0xBD, 0x41, 0x4D, 0x94, 0x0E, 0x93,
    /* xG */
    0x32, 0xC4, 0xAE, 0x2C, 0x1F, 0x19, 0x81, 0x19, 0x5F, 0x99, 0x04, 0x46, 0x6A, 0x39, 0xC9, 0x94,
    0x8F, 0xE3, 0x0B, 0xBF, 0xF2, 0x66, 0x0B, 0xE1, 0x71, 0x5A, 0x45, 0x89, 0x33, 0x4C, 0x74, 0xC7,
    /* yG */
    0xBC, 0x37, 0x36, 0xA2, 0xF4, 0xF6, 0x77, 0x9C, 0x59, 0xBD, 0xCE, 0xE3, 0x6B, 0x69, 0x21, 0x53,
    0xD0, 0xA9, 0x87, 0x7C, 0xC6, 0x2A, 0x47, 0x40, 0x02, 0xDF, 0x32, 0xE5, 0x21, 0x39, 0xF0, 0xA0,
};
/* clang-format on */

/* An ID given by the caller (id non-NULL): 0..8191 bytes. Length 0 is the
 * empty ID (ENTL = 0, no ID bytes), which OpenSSL hashes when no
 * distinguishing ID is set; NULL (the key's ID) is told apart by the
 * callers. */
static int id_len_ok(size_t idlen)
{
    return idlen <= FASTSM2_MAX_ID_LEN;
}

/* SM3 state after ENTL || ID || a || b || xG || yG for the default ID
 * (146 bytes: two compressions that every Z_A with that ID shares), made
 * once per process. */
static fastsm2_sm3_ctx default_prefix;
static pthread_once_t default_prefix_once = PTHREAD_ONCE_INIT;

static void z_prefix(fastsm2_sm3_ctx *c, const void *id, size_t idlen)
{
    unsigned char entl[2] = {(unsigned char)(idlen * 8 >> 8), (unsigned char)(idlen * 8)};
    fastsm2_sm3_init(c);
    fastsm2_sm3_update(c, entl, 2);
    fastsm2_sm3_update(c, id, idlen);
    fastsm2_sm3_update(c, CURVE_ABG, sizeof CURVE_ABG);
}

static void make_default_prefix(void)
{
    z_prefix(&default_prefix, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN);
}

static void compute_z(unsigned char z[32], const fs2_affine *pt, const void *id, size_t idlen)
{
    fastsm2_sm3_ctx c;
    unsigned char xy[64];
    fs2_u256_to_be(xy, pt->x);
    fs2_u256_to_be(xy + 32, pt->y);
    if (idlen == FASTSM2_DEFAULT_ID_LEN && !memcmp(id, FASTSM2_DEFAULT_ID, idlen)) {
        pthread_once(&default_prefix_once, make_default_prefix);
        c = default_prefix;
    } else {
        z_prefix(&c, id, idlen);
    }
    fastsm2_sm3_update(&c, xy, 64);
    fastsm2_sm3_final(z, &c);
}

const fs2_pubtab *fs2_pub_tables(const fs2_pub *p)
{
    return __atomic_load_n(&p->tab_state, __ATOMIC_ACQUIRE) == 2 ? &p->tab : NULL;
}

int fs2_pubpart_set_id(fs2_pubpart *p, const void *id, size_t idlen)
{
    if (!id && idlen)
        return FASTSM2_ERR_ARG;
    if (!id || !id_len_ok(idlen))
        return FASTSM2_ERR_ID;
    compute_z(p->za, &p->pt, id, idlen);
    p->idlen = (uint32_t)idlen;
    memset(p->id, 0, sizeof p->id);
    if (idlen <= FASTSM2_CACHED_ID_MAX)
        memcpy(p->id, id, idlen);
    return FASTSM2_OK;
}

int fs2_pubpart_z(unsigned char z[32], const fs2_pubpart *p, const void *id, size_t idlen)
{
    if (!id) {
        if (idlen)
            return FASTSM2_ERR_ARG; /* as fs2_pubpart_set_id: no ID, yet a length */
        memcpy(z, p->za, 32);
        return FASTSM2_OK;
    }
    if (!id_len_ok(idlen))
        return FASTSM2_ERR_ID;
    if (p->idlen <= FASTSM2_CACHED_ID_MAX && idlen == p->idlen && !memcmp(id, p->id, idlen)) {
        memcpy(z, p->za, 32);
        return FASTSM2_OK;
    }
    compute_z(z, &p->pt, id, idlen);
    return FASTSM2_OK;
}

uint64_t fs2_scalar_load_check(uint64_t k[4], const unsigned char b[32], unsigned extra)
{
    uint64_t lim[4];
    fs2_u256_from_be(k, b);
    /* k in [1, n-1-extra]  <=>  k != 0 and k < n - extra */
    memcpy(lim, FS2_N, sizeof lim);
    lim[0] -= extra; /* n's low limb is far from 0: no borrow */
    return ~fs2_is_zero_mask4(k) & fs2_lt_mask4(k, lim);
}

int fs2_random_scalar(uint64_t k[4], unsigned extra)
{
    unsigned char b[32];
    /* Rejection sampling: n is within 2^-32 of 2^256, so one draw almost
     * always suffices; the retry reveals only that a draw was out of range. */
    for (int tries = 0; tries < 64; tries++) {
        if (!fs2_random_bytes(b, sizeof b))
            break;
        uint64_t ok = fs2_scalar_load_check(k, b, extra);
        fs2_declassify(&ok, sizeof ok);
        if (ok) {
            fs2_wipe(b, sizeof b);
            return 1;
        }
    }
    fs2_wipe(b, sizeof b);
    memset(k, 0, 32);
    return 0;
}

int fs2_point_load(fs2_affine *r, const unsigned char *in, size_t inlen)
{
    memset(r, 0, sizeof *r);
    if (!in)
        return FASTSM2_ERR_ARG;
    if (inlen == 65) {
        /* 04: uncompressed; 06/07: hybrid (GB/T 32918.1 4.2.10), x and y
         * with y's parity in the prefix, which must match y (never written) */
        if (in[0] != 0x04 && !((in[0] == 0x06 || in[0] == 0x07) && (in[64] & 1) == (in[0] & 1)))
            return FASTSM2_ERR_POINT;
        fs2_u256_from_be(r->x, in + 1);
        fs2_u256_from_be(r->y, in + 33);
        if (!fs2_point_on_curve_var(r)) {
            memset(r, 0, sizeof *r);
            return FASTSM2_ERR_POINT;
        }
        return FASTSM2_OK;
    }
    if (inlen == 33) {
        uint64_t x[4];
        if (in[0] != 0x02 && in[0] != 0x03)
            return FASTSM2_ERR_POINT;
        fs2_u256_from_be(x, in + 1);
        if (!fs2_point_decompress_var(r, x, in[0] & 1))
            return FASTSM2_ERR_POINT;
        return FASTSM2_OK;
    }
    if (inlen == 1 && in[0] == 0x00)
        return FASTSM2_ERR_POINT; /* SEC1's encoding of the point at infinity */
    return FASTSM2_ERR_LENGTH;
}

void fs2_point_store(unsigned char out[65], const fs2_affine *p)
{
    out[0] = 0x04;
    fs2_u256_to_be(out + 1, p->x);
    fs2_u256_to_be(out + 33, p->y);
}

/* ---- public API ----------------------------------------------------------- */

/* A key from d: P = dG and the signing inverse (1 + d)^-1 together (the
 * scalar inversion runs alongside the field inversion that makes P affine
 * where the EC table has that slot), Z_A of the default ID. Nothing is
 * written to the object after this (but by set_id). */
static int priv_init(fastsm2_privkey *key, const uint64_t d[4])
{
    static const uint64_t one[4] = {1, 0, 0, 0};
    const fs2_ec_ops *ec = fs2_ec();
    fs2_priv *k = (fs2_priv *)key;
    fs2_sc d1;
    memset(key, 0, sizeof *key);
    memcpy(k->d, d, 32);
    fs2_modadd(d1.v, d, one, FS2_N);
    if (ec->mul_base_and_sc_inv) {
        ec->mul_base_and_sc_inv(&k->pub.pt, d, k->dinv_m.v, d1.v);
    } else {
        ec->mul_base(&k->pub.pt, d);
        fs2_sc_inv_mont(&k->dinv_m, &d1);
    }
    fs2_wipe(&d1, sizeof d1);
    k->magic = FS2_PRIV_MAGIC;
    /* The public key is public: let the constant-time test branch on it. */
    fs2_declassify(&k->pub, sizeof k->pub);
    return fs2_pubpart_set_id(&k->pub, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN);
}

int fastsm2_privkey_generate(fastsm2_privkey *key)
{
    uint64_t d[4];
    if (!key)
        return FASTSM2_ERR_ARG;
    if (!fs2_random_scalar(d, 1)) {
        memset(key, 0, sizeof *key);
        return FASTSM2_ERR_RANDOM;
    }
    int ret = priv_init(key, d);
    fs2_wipe(d, sizeof d);
    return ret;
}

int fastsm2_privkey_from_bytes(fastsm2_privkey *key, const unsigned char d[32])
{
    uint64_t k[4];
    if (!key)
        return FASTSM2_ERR_ARG;
    if (!d) {
        memset(key, 0, sizeof *key);
        return FASTSM2_ERR_ARG;
    }
    uint64_t ok = fs2_scalar_load_check(k, d, 1);
    fs2_declassify(&ok, sizeof ok); /* whether d is a valid key is public */
    if (!ok) {
        fs2_wipe(k, sizeof k);
        memset(key, 0, sizeof *key);
        return FASTSM2_ERR_PRIVATE_KEY;
    }
    int ret = priv_init(key, k);
    fs2_wipe(k, sizeof k);
    return ret;
}

int fastsm2_privkey_to_bytes(unsigned char d[32], const fastsm2_privkey *key)
{
    const fs2_priv *k = fs2_priv_get(key);
    if (!d)
        return FASTSM2_ERR_ARG;
    if (!k) {
        memset(d, 0, 32);
        return FASTSM2_ERR_ARG;
    }
    fs2_u256_to_be(d, k->d);
    return FASTSM2_OK;
}

int fastsm2_privkey_pubkey(fastsm2_pubkey *pub, const fastsm2_privkey *key)
{
    const fs2_priv *k = fs2_priv_get(key);
    if (!pub)
        return FASTSM2_ERR_ARG;
    memset(pub, 0, sizeof *pub);
    if (!k)
        return FASTSM2_ERR_ARG;
    fs2_pub *p = (fs2_pub *)pub;
    p->pub = k->pub;
    p->magic = FS2_PUB_MAGIC;
    return FASTSM2_OK;
}

void fastsm2_privkey_clear(fastsm2_privkey *key)
{
    if (key)
        fs2_wipe(key, sizeof *key);
}

int fastsm2_pubkey_from_bytes(fastsm2_pubkey *pub, const unsigned char *in, size_t inlen)
{
    if (!pub)
        return FASTSM2_ERR_ARG;
    memset(pub, 0, sizeof *pub);
    fs2_pub *p = (fs2_pub *)pub;
    int ret = fs2_point_load(&p->pub.pt, in, inlen);
    if (ret != FASTSM2_OK)
        return ret;
    ret = fs2_pubpart_set_id(&p->pub, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN);
    if (ret != FASTSM2_OK) {
        memset(pub, 0, sizeof *pub);
        return ret;
    }
    p->magic = FS2_PUB_MAGIC;
    return FASTSM2_OK;
}

int fastsm2_pubkey_precompute(fastsm2_pubkey *pub)
{
    if (!fs2_pub_get(pub))
        return FASTSM2_ERR_ARG;
    fs2_pub *p = (fs2_pub *)pub;
    /* One thread makes the tables; the others, and readers meanwhile, see
     * state 1 and use none; state 2 is published after the tables. */
    uint32_t expect = 0;
    if (__atomic_compare_exchange_n(&p->tab_state, &expect, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        fs2_ec()->precompute_var(&p->tab, &p->pub.pt);
        __atomic_store_n(&p->tab_state, 2, __ATOMIC_RELEASE);
    }
    return FASTSM2_OK;
}

int fastsm2_pubkey_to_bytes(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, int compressed)
{
    const fs2_pub *p = fs2_pub_get(pub);
    if (!out || !outlen)
        return FASTSM2_ERR_ARG;
    size_t need = compressed ? 33 : 65, cap = *outlen;
    if (!p || cap < need) {
        memset(out, 0, cap);
        *outlen = 0;
        return p ? FASTSM2_ERR_BUFFER_TOO_SMALL : FASTSM2_ERR_ARG;
    }
    if (compressed) {
        out[0] = (unsigned char)(0x02 | (p->pub.pt.y[0] & 1));
        fs2_u256_to_be(out + 1, p->pub.pt.x);
    } else {
        fs2_point_store(out, &p->pub.pt);
    }
    *outlen = need;
    return FASTSM2_OK;
}

int fastsm2_privkey_set_id(fastsm2_privkey *key, const void *id, size_t idlen)
{
    if (!fs2_priv_get(key))
        return FASTSM2_ERR_ARG;
    return fs2_pubpart_set_id(&((fs2_priv *)key)->pub, id, idlen);
}

int fastsm2_pubkey_set_id(fastsm2_pubkey *pub, const void *id, size_t idlen)
{
    if (!fs2_pub_get(pub))
        return FASTSM2_ERR_ARG;
    return fs2_pubpart_set_id(&((fs2_pub *)pub)->pub, id, idlen);
}

int fastsm2_compute_z(unsigned char z[32], const fastsm2_pubkey *pub, const void *id, size_t idlen)
{
    const fs2_pub *p = fs2_pub_get(pub);
    if (!z)
        return FASTSM2_ERR_ARG;
    if (!p) {
        memset(z, 0, 32);
        return FASTSM2_ERR_ARG;
    }
    int ret = fs2_pubpart_z(z, &p->pub, id, idlen);
    if (ret != FASTSM2_OK)
        memset(z, 0, 32);
    return ret;
}
