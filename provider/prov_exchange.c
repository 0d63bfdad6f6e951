/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 key agreement (provider-keyexch(7)) under Tongsuo's name "SM2DH",
 * which SM2 keys name for key exchange (the key manager's answer):
 *  - with Tongsuo's parameters, the key exchange of GB/T 32918.3 that TLCP's
 *    ECDHE suites use (GB/T 38636): the context's key is this side's
 *    ephemeral key (r, R = rG), "self-enc-key" and "peer-enc-key" the two
 *    encryption certificates' keys (as EVP_PKEY pointers, read through the
 *    host's EVP_PKEY_get_params), "sm2-initiator" says which side is A,
 *    "self-id" and "peer-id" the IDs (default 1234567812345678), "outlen"
 *    the key's length; the peer is the other side's ephemeral key. The key
 *    is KDF(xV || yV || Z_A || Z_B, outlen), through fastsm2_kx_*.
 *  - without them, plain ECDH: the x-coordinate of dP (fastsm2_ecdh), as
 *    TLS 1.3's curveSM2 (RFC 8998) uses it.
 */
#include <stdlib.h>
#include <string.h>

#include "prov.h"

#define PARAM_INITIATOR    "sm2-initiator"
#define PARAM_SELF_ID      "self-id"
#define PARAM_PEER_ID      "peer-id"
#define PARAM_SELF_ENC_KEY "self-enc-key"
#define PARAM_PEER_ENC_KEY "peer-enc-key"
#define PARAM_DIGEST       "digest"
#define PARAM_OUTLEN       "outlen"

typedef struct {
    fs2p_provctx *pc;
    fs2p_key *key;  /* this side's (ephemeral) key */
    fs2p_key *peer; /* the other side's (ephemeral) public key */
    int initiator;
    unsigned char self_id[FASTSM2_CACHED_ID_MAX], peer_id[FASTSM2_CACHED_ID_MAX];
    size_t self_idlen, peer_idlen;
    int have_self_enc, have_peer_enc;
    fastsm2_privkey self_enc;
    fastsm2_pubkey peer_enc;
    size_t outlen;
} kx_ctx;

static void *kx_newctx(void *provctx)
{
    kx_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "key exchange context");
        return NULL;
    }
    c->pc = provctx;
    memcpy(c->self_id, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN);
    memcpy(c->peer_id, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN);
    c->self_idlen = c->peer_idlen = FASTSM2_DEFAULT_ID_LEN;
    return c;
}

static void kx_freectx(void *vctx)
{
    kx_ctx *c = vctx;
    if (c == NULL)
        return;
    fs2p_key_unref(c->key);
    fs2p_key_unref(c->peer);
    fastsm2_privkey_clear(&c->self_enc);
    fs2p_wipe(c, sizeof *c);
    free(c);
}

static void *kx_dupctx(void *vctx)
{
    const kx_ctx *s = vctx;
    kx_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    if (c->key != NULL)
        fs2p_key_ref(c->key);
    if (c->peer != NULL)
        fs2p_key_ref(c->peer);
    return c;
}

/* An EVP_PKEY's key as the host's EVP_PKEY_get_params gives it: the point
 * (and, when priv is not NULL, the scalar, 32 bytes big-endian). */
static int evp_key(const kx_ctx *c, const void *evp_pkey, unsigned char pub[65], unsigned char *priv)
{
    unsigned char native[32], point[133];
    OSSL_PARAM q[3] = {{OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, OSSL_PARAM_OCTET_STRING, point, sizeof point, 0},
                       {OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_UNSIGNED_INTEGER, native, sizeof native, 0},
                       {NULL, 0, NULL, 0, 0}};
    if (priv == NULL)
        q[1] = q[2];
    q[0].return_size = q[1].return_size = OSSL_PARAM_UNMODIFIED;
    if (c->pc->evp_pkey_get_params == NULL || evp_pkey == NULL || !c->pc->evp_pkey_get_params(evp_pkey, q) ||
        q[0].return_size != 65 ||
        (priv != NULL && (q[1].return_size == OSSL_PARAM_UNMODIFIED || q[1].return_size > 32))) {
        fs2p_wipe(native, sizeof native);
        return 0;
    }
    memcpy(pub, point, 65);
    if (priv != NULL)
        fs2p_scalar_from_native(priv, native, q[1].return_size);
    fs2p_wipe(native, sizeof native);
    return 1;
}

static int get_id(const OSSL_PARAM *p, unsigned char *id, size_t *idlen)
{
    const unsigned char *d;
    size_t n;
    if (!fs2p_get_octets(p, &d, &n) || n > FASTSM2_CACHED_ID_MAX)
        return 0;
    if (n)
        memcpy(id, d, n);
    *idlen = n;
    return 1;
}

static int kx_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    kx_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if ((p = fs2p_locate_const(params, PARAM_INITIATOR)) != NULL) {
        size_t v;
        if (!fs2p_get_size_t(p, &v))
            goto bad;
        c->initiator = v != 0;
    }
    if ((p = fs2p_locate_const(params, PARAM_SELF_ID)) != NULL && !get_id(p, c->self_id, &c->self_idlen))
        goto bad;
    if ((p = fs2p_locate_const(params, PARAM_PEER_ID)) != NULL && !get_id(p, c->peer_id, &c->peer_idlen))
        goto bad;
    if ((p = fs2p_locate_const(params, PARAM_DIGEST)) != NULL && !fs2p_utf8_is(p, "SM3") &&
        !fs2p_utf8_is(p, "1.2.156.10197.1.401")) {
        fs2p_raise(c->pc, FASTSM2_ERR_ARG, "digest: the key exchange hashes with SM3 only");
        return 0;
    }
    if ((p = fs2p_locate_const(params, PARAM_OUTLEN)) != NULL &&
        (!fs2p_get_size_t(p, &c->outlen) || c->outlen == 0 || c->outlen > 65536))
        goto bad;
    if ((fs2p_locate_const(params, PARAM_SELF_ENC_KEY) != NULL ||
         fs2p_locate_const(params, PARAM_PEER_ENC_KEY) != NULL) &&
        c->pc->evp_pkey_get_params == NULL) {
        /* a program with libcrypto linked in statically and its symbols
         * not exported: nothing reads an EVP_PKEY for the module */
        fs2p_raise(c->pc, FASTSM2_ERR_UNSUPPORTED,
                   "self-enc-key, peer-enc-key: the host's EVP_PKEY_get_params is not visible to the module "
                   "(link a static libcrypto with -rdynamic)");
        return 0;
    }
    if ((p = fs2p_locate_const(params, PARAM_SELF_ENC_KEY)) != NULL) {
        unsigned char pub[65], d[32];
        if (p->data_type != OSSL_PARAM_OCTET_PTR || p->data == NULL || !evp_key(c, *(void *const *)p->data, pub, d) ||
            fastsm2_privkey_from_bytes(&c->self_enc, d) != FASTSM2_OK) {
            fs2p_wipe(d, sizeof d);
            fs2p_raise(c->pc, FASTSM2_ERR_PRIVATE_KEY, "self-enc-key");
            return 0;
        }
        fs2p_wipe(d, sizeof d);
        c->have_self_enc = 1;
    }
    if ((p = fs2p_locate_const(params, PARAM_PEER_ENC_KEY)) != NULL) {
        unsigned char pub[65];
        if (p->data_type != OSSL_PARAM_OCTET_PTR || p->data == NULL ||
            !evp_key(c, *(void *const *)p->data, pub, NULL) ||
            fastsm2_pubkey_from_bytes(&c->peer_enc, pub, 65) != FASTSM2_OK) {
            fs2p_raise(c->pc, FASTSM2_ERR_POINT, "peer-enc-key");
            return 0;
        }
        c->have_peer_enc = 1;
    }
    return 1;
bad:
    fs2p_raise(c->pc, FASTSM2_ERR_ARG, "key exchange parameter");
    return 0;
}

static const OSSL_PARAM settable[] = {{PARAM_INITIATOR, OSSL_PARAM_INTEGER, NULL, sizeof(int), 0},
                                      {PARAM_SELF_ID, OSSL_PARAM_OCTET_STRING, NULL, 0, 0},
                                      {PARAM_PEER_ID, OSSL_PARAM_OCTET_STRING, NULL, 0, 0},
                                      {PARAM_SELF_ENC_KEY, OSSL_PARAM_OCTET_PTR, NULL, 0, 0},
                                      {PARAM_PEER_ENC_KEY, OSSL_PARAM_OCTET_PTR, NULL, 0, 0},
                                      {PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, 0},
                                      {PARAM_OUTLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), 0},
                                      {NULL, 0, NULL, 0, 0}};

static const OSSL_PARAM *kx_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return settable;
}

static int kx_init(void *vctx, void *keydata, const OSSL_PARAM params[])
{
    kx_ctx *c = vctx;
    fs2p_key *k = keydata;
    if (c == NULL || k == NULL || !k->has_priv) {
        fs2p_raise(c ? c->pc : NULL, FASTSM2_ERR_ARG, "key exchange: a private key");
        return 0;
    }
    fs2p_key_unref(c->key);
    c->key = fs2p_key_ref(k);
    return kx_set_ctx_params(c, params);
}

static int kx_set_peer(void *vctx, void *keydata)
{
    kx_ctx *c = vctx;
    fs2p_key *k = keydata;
    if (k == NULL || !k->has_pub)
        return 0;
    fs2p_key_unref(c->peer);
    c->peer = fs2p_key_ref(k);
    return 1;
}

static int kx_derive(void *vctx, unsigned char *secret, size_t *secretlen, size_t outlen)
{
    kx_ctx *c = vctx;
    int sm2kx = c->have_self_enc || c->have_peer_enc;
    size_t len = sm2kx ? c->outlen : 32;
    int st;
    if (c->key == NULL || c->peer == NULL || (sm2kx && (!c->have_self_enc || !c->have_peer_enc || len == 0))) {
        fs2p_raise(c->pc, FASTSM2_ERR_STATE, "key exchange: keys missing");
        return 0;
    }
    if (secret == NULL) {
        *secretlen = len;
        return 1;
    }
    if (outlen < len) {
        fs2p_raise(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "key exchange");
        return 0;
    }
    if (!sm2kx) {
        st = fastsm2_ecdh(secret, &c->key->priv, c->peer->pub65, 65);
    } else {
        /* GB/T 32918.3: this side's static key and ID, the peer's, and the
         * ephemeral r of this side's key; R = rG must be that key's point */
        fastsm2_kx_ctx kx;
        unsigned char r[32], R[65];
        st = fastsm2_kx_init(&kx, c->initiator ? FASTSM2_KX_INITIATOR : FASTSM2_KX_RESPONDER, &c->self_enc, c->self_id,
                             c->self_idlen, &c->peer_enc, c->peer_id, c->peer_idlen);
        if (st == FASTSM2_OK)
            st = fastsm2_privkey_to_bytes(r, &c->key->priv);
        if (st == FASTSM2_OK)
            st = fastsm2_kx_start_with_nonce(&kx, R, r);
        if (st == FASTSM2_OK && memcmp(R, c->key->pub65, 65) != 0)
            st = FASTSM2_ERR_POINT;
        if (st == FASTSM2_OK)
            st = fastsm2_kx_compute(&kx, secret, len, c->peer->pub65, 65);
        fastsm2_kx_clear(&kx);
        fs2p_wipe(r, sizeof r);
    }
    if (st != FASTSM2_OK) {
        fs2p_wipe(secret, len);
        fs2p_raise(c->pc, st, "key exchange");
        return 0;
    }
    *secretlen = len;
    return 1;
}

const OSSL_DISPATCH fs2p_keyexch_functions[] = {
    {OSSL_FUNC_KEYEXCH_NEWCTX, (void (*)(void))kx_newctx},
    {OSSL_FUNC_KEYEXCH_INIT, (void (*)(void))kx_init},
    {OSSL_FUNC_KEYEXCH_SET_PEER, (void (*)(void))kx_set_peer},
    {OSSL_FUNC_KEYEXCH_DERIVE, (void (*)(void))kx_derive},
    {OSSL_FUNC_KEYEXCH_FREECTX, (void (*)(void))kx_freectx},
    {OSSL_FUNC_KEYEXCH_DUPCTX, (void (*)(void))kx_dupctx},
    {OSSL_FUNC_KEYEXCH_SET_CTX_PARAMS, (void (*)(void))kx_set_ctx_params},
    {OSSL_FUNC_KEYEXCH_SETTABLE_CTX_PARAMS, (void (*)(void))kx_settable_ctx_params},
    {0, NULL}};
