/* SPDX-License-Identifier: Apache-2.0 */
/* Key exchange, GB/T 32918.3-2016 clause 6, with the optional
 * confirmations S_B / S_1 (0x02) and S_A / S_2 (0x03). User A is the
 * initiator, B the responder; Z_A is always A's and Z_B B's. */
#include "protocol/protocol.h"

enum { KX_NEW = 1, KX_STARTED = 2, KX_DONE = 3 };

typedef struct {
    uint64_t magic;
    uint32_t role, state;
    uint64_t d[4]; /* own private key (secret) */
    uint64_t r[4]; /* own ephemeral scalar (secret) */
    fs2_affine own_pub, peer_pub, own_R;
    unsigned char za[32], zb[32];
    unsigned char s_send[32], s_check[32];
} fs2_kx;

_Static_assert(sizeof(fs2_kx) <= sizeof(fastsm2_kx_ctx), "fastsm2_kx_ctx too small");

static fs2_kx *kx_get(const fastsm2_kx_ctx *ctx)
{
    if (!ctx)
        return NULL;
    fs2_kx *k = (fs2_kx *)ctx;
    fs2_declassify(&k->magic, sizeof k->magic);
    fs2_declassify(&k->role, 2 * sizeof k->role);
    return k->magic == FS2_KX_MAGIC ? k : NULL;
}

int fastsm2_kx_init(fastsm2_kx_ctx *ctx, int role, const fastsm2_privkey *key, const void *id, size_t idlen,
                    const fastsm2_pubkey *peer, const void *peer_id, size_t peer_idlen)
{
    if (!ctx)
        return FASTSM2_ERR_ARG;
    memset(ctx, 0, sizeof *ctx);
    const fs2_priv *k = fs2_priv_get(key);
    const fs2_pub *p = fs2_pub_get(peer);
    if (!k || !p || (role != FASTSM2_KX_INITIATOR && role != FASTSM2_KX_RESPONDER))
        return FASTSM2_ERR_ARG;
    fs2_kx *x = (fs2_kx *)ctx;
    unsigned char *own_z = role == FASTSM2_KX_INITIATOR ? x->za : x->zb;
    unsigned char *peer_z = role == FASTSM2_KX_INITIATOR ? x->zb : x->za;
    int ret = fs2_pubpart_z(own_z, &k->pub, id, idlen);
    if (ret == FASTSM2_OK)
        ret = fs2_pubpart_z(peer_z, &p->pub, peer_id, peer_idlen);
    if (ret != FASTSM2_OK) {
        memset(ctx, 0, sizeof *ctx);
        return ret;
    }
    x->role = (uint32_t)role;
    memcpy(x->d, k->d, 32);
    x->own_pub = k->pub.pt;
    x->peer_pub = p->pub.pt;
    x->state = KX_NEW;
    x->magic = FS2_KX_MAGIC;
    return FASTSM2_OK;
}

static int kx_start(fs2_kx *x, unsigned char R[65])
{
    /* A2 / B2: R = [r]G */
    fs2_ec()->mul_base(&x->own_R, x->r);
    fs2_declassify(&x->own_R, sizeof x->own_R); /* R is sent to the peer */
    fs2_point_store(R, &x->own_R);
    x->state = KX_STARTED;
    return FASTSM2_OK;
}

int fastsm2_kx_start(fastsm2_kx_ctx *ctx, unsigned char R[65])
{
    fs2_kx *x = kx_get(ctx);
    if (!R)
        return FASTSM2_ERR_ARG;
    memset(R, 0, 65);
    if (!x)
        return FASTSM2_ERR_ARG;
    if (x->state != KX_NEW)
        return FASTSM2_ERR_STATE;
    if (!fs2_random_scalar(x->r, 0)) /* A1 / B1 */
        return FASTSM2_ERR_RANDOM;
    return kx_start(x, R);
}

int fastsm2_kx_start_with_nonce(fastsm2_kx_ctx *ctx, unsigned char R[65], const unsigned char r[32])
{
    fs2_kx *x = kx_get(ctx);
    if (!R)
        return FASTSM2_ERR_ARG;
    memset(R, 0, 65);
    if (!x || !r)
        return FASTSM2_ERR_ARG;
    if (x->state != KX_NEW)
        return FASTSM2_ERR_STATE;
    uint64_t ok = fs2_scalar_load_check(x->r, r, 0);
    fs2_declassify(&ok, sizeof ok);
    if (!ok) {
        fs2_wipe(x->r, sizeof x->r);
        return FASTSM2_ERR_SCALAR;
    }
    return kx_start(x, R);
}

/* x-bar = 2^w + (x mod 2^w), w = 127 (GB/T 32918.3 6.1 A4) */
static void xbar(uint64_t r[4], const uint64_t x[4])
{
    r[0] = x[0];
    r[1] = (x[1] & 0x7FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;
    r[2] = r[3] = 0;
}

static void confirmation(unsigned char out[32], unsigned char tag, const unsigned char yu[32],
                         const unsigned char inner[32])
{
    fastsm2_sm3_ctx c;
    fastsm2_sm3_init(&c);
    fastsm2_sm3_update(&c, &tag, 1);
    fastsm2_sm3_update(&c, yu, 32);
    fastsm2_sm3_update(&c, inner, 32);
    fastsm2_sm3_final(out, &c);
}

int fastsm2_kx_compute(fastsm2_kx_ctx *ctx, unsigned char *key, size_t klen, const unsigned char *peer_R,
                       size_t peer_Rlen)
{
    fs2_kx *x = kx_get(ctx);
    if (!key)
        return FASTSM2_ERR_ARG;
    if (klen == 0 || klen > 65536)
        return FASTSM2_ERR_LENGTH;
    memset(key, 0, klen);
    if (!x || !peer_R)
        return FASTSM2_ERR_ARG;
    if (x->state != KX_STARTED)
        return FASTSM2_ERR_STATE;
    const fs2_ec_ops *ec = fs2_ec();
    fs2_affine pr, u = {{0}, {0}, 1};
    /* A6 / B4: the peer's R must be on the curve */
    int ret = fs2_point_load(&pr, peer_R, peer_Rlen);
    if (ret != FASTSM2_OK)
        return ret == FASTSM2_ERR_LENGTH ? FASTSM2_ERR_LENGTH : FASTSM2_ERR_POINT;
    /* A4-A5 / B3: t = (d + x-bar * r) mod n */
    uint64_t xb[4];
    fs2_sc xbm, rr, t, dd;
    xbar(xb, x->own_R.x);
    memcpy(xbm.v, xb, 32);
    fs2_sc_to_mont(&xbm, &xbm);
    memcpy(rr.v, x->r, 32);
    fs2_sc_mont_mul(&t, &xbm, &rr);
    memcpy(dd.v, x->d, 32);
    fs2_sc_add(&t, &t, &dd);
    /* A6-A7 / B4-B5: U = [h t](P_peer + [x-bar_peer] R_peer), h = 1. The
     * point in brackets is public (x-bar and R_peer too: made in variable
     * time, 128 doublings); only t is secret. U is infinity when the point
     * in brackets is. */
    xbar(xb, pr.x);
    ec->mul_of_sum(&u, &x->peer_pub, &pr, xb, t.v);
    fs2_wipe(&t, sizeof t);
    fs2_wipe(&rr, sizeof rr);
    fs2_wipe(&dd, sizeof dd);
    uint64_t uinf = u.infinity;
    fs2_declassify(&uinf, sizeof uinf); /* failure is public */
    if (uinf) {
        fs2_wipe(&u, sizeof u);
        return FASTSM2_ERR_POINT;
    }
    /* A8 / B6: K = KDF(xU || yU || Z_A || Z_B, klen) */
    unsigned char z[128], inner[32];
    fs2_u256_to_be(z, u.x);
    fs2_u256_to_be(z + 32, u.y);
    fs2_wipe(&u, sizeof u);
    memcpy(z + 64, x->za, 32);
    memcpy(z + 96, x->zb, 32);
    fs2_kdf_xor(key, NULL, klen, z, 128);
    /* A9-A10 / B7-B10: inner = Hash(xU || Z_A || Z_B || x1 || y1 || x2 || y2)
     * with (x1, y1) = R_A and (x2, y2) = R_B. */
    const fs2_affine *ra = x->role == FASTSM2_KX_INITIATOR ? &x->own_R : &pr;
    const fs2_affine *rb = x->role == FASTSM2_KX_INITIATOR ? &pr : &x->own_R;
    unsigned char pts[128];
    fs2_u256_to_be(pts, ra->x);
    fs2_u256_to_be(pts + 32, ra->y);
    fs2_u256_to_be(pts + 64, rb->x);
    fs2_u256_to_be(pts + 96, rb->y);
    fastsm2_sm3_ctx c;
    fastsm2_sm3_init(&c);
    fastsm2_sm3_update(&c, z, 32);
    fastsm2_sm3_update(&c, z + 64, 64);
    fastsm2_sm3_update(&c, pts, 128);
    fastsm2_sm3_final(inner, &c);
    unsigned char s02[32], s03[32];
    confirmation(s02, 0x02, z + 32, inner);
    confirmation(s03, 0x03, z + 32, inner);
    if (x->role == FASTSM2_KX_INITIATOR) {
        memcpy(x->s_check, s02, 32); /* S_1, to compare with S_B */
        memcpy(x->s_send, s03, 32);  /* S_A */
    } else {
        memcpy(x->s_send, s02, 32);  /* S_B */
        memcpy(x->s_check, s03, 32); /* S_2, to compare with S_A */
    }
    fs2_wipe(z, sizeof z);
    fs2_wipe(inner, sizeof inner);
    fs2_wipe(s02, sizeof s02);
    fs2_wipe(s03, sizeof s03);
    fs2_wipe(x->r, sizeof x->r);
    x->state = KX_DONE;
    return FASTSM2_OK;
}

int fastsm2_kx_confirmation(unsigned char out[32], const fastsm2_kx_ctx *ctx)
{
    fs2_kx *x = kx_get(ctx);
    if (!out)
        return FASTSM2_ERR_ARG;
    memset(out, 0, 32);
    if (!x)
        return FASTSM2_ERR_ARG;
    if (x->state != KX_DONE)
        return FASTSM2_ERR_STATE;
    memcpy(out, x->s_send, 32);
    return FASTSM2_OK;
}

int fastsm2_kx_verify_confirmation(const fastsm2_kx_ctx *ctx, const unsigned char in[32])
{
    fs2_kx *x = kx_get(ctx);
    if (!x || !in)
        return FASTSM2_ERR_ARG;
    if (x->state != KX_DONE)
        return FASTSM2_ERR_STATE;
    int ok = fs2_ct_memeq(x->s_check, in, 32);
    fs2_declassify(&ok, sizeof ok); /* the outcome is public */
    return ok ? FASTSM2_OK : FASTSM2_ERR_CONFIRM;
}

void fastsm2_kx_clear(fastsm2_kx_ctx *ctx)
{
    if (ctx)
        fs2_wipe(ctx, sizeof *ctx);
}

int fastsm2_ecdh(unsigned char out[32], const fastsm2_privkey *key, const unsigned char *peer, size_t peerlen)
{
    if (!out)
        return FASTSM2_ERR_ARG;
    memset(out, 0, 32);
    const fs2_priv *k = fs2_priv_get(key);
    if (!k || !peer)
        return FASTSM2_ERR_ARG;
    fs2_affine p, u = {{0}, {0}, 1};
    int ret = fs2_point_load(&p, peer, peerlen);
    if (ret != FASTSM2_OK)
        return ret == FASTSM2_ERR_LENGTH ? FASTSM2_ERR_LENGTH : FASTSM2_ERR_POINT;
    /* [d]P: P is validated (on the curve, not infinity) and the group has
     * prime order, so with d in [1, n-2] U is never infinity; checked all
     * the same, as a public outcome. */
    fs2_ec()->mul(&u, &p, NULL, k->d);
    uint64_t uinf = u.infinity;
    fs2_declassify(&uinf, sizeof uinf);
    if (uinf) {
        fs2_wipe(&u, sizeof u);
        return FASTSM2_ERR_POINT;
    }
    fs2_u256_to_be(out, u.x);
    fs2_wipe(&u, sizeof u);
    return FASTSM2_OK;
}
