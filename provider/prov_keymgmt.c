/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 key management (provider-keymgmt(7)). A key holds a validated public
 * key (GB/T 32918.1 6.2) and, for a key pair, the private key (6.1). Keys
 * cross between this provider and OpenSSL's default one through the
 * parameters that provider uses for SM2 keys: "group" ("SM2"), "pub" (a
 * SEC1 point, octet string) and "priv" (an unsigned integer, native byte
 * order); "encoding" and "point-format" are accepted and written as the
 * default provider writes them for a named curve.
 */
#include <stdlib.h>
#include <string.h>

#include "prov.h"

#define SELECT_KEYPAIR OSSL_KEYMGMT_SELECT_KEYPAIR
#define SELECT_PRIV    OSSL_KEYMGMT_SELECT_PRIVATE_KEY
#define SELECT_PUB     OSSL_KEYMGMT_SELECT_PUBLIC_KEY

fs2p_key *fs2p_key_ref(fs2p_key *k)
{
    __atomic_add_fetch(&k->refs, 1, __ATOMIC_RELAXED);
    return k;
}

void fs2p_key_unref(fs2p_key *k)
{
    if (k == NULL || __atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    fastsm2_privkey_clear(&k->priv);
    /* the rest is public, but the whole object goes the same way */
    volatile unsigned char *v = (volatile unsigned char *)k;
    for (size_t i = 0; i < sizeof *k; i++)
        v[i] = 0;
    free(k);
}

const fastsm2_pubkey *fs2p_key_pub_use(fs2p_key *k)
{
    if (__atomic_add_fetch(&k->uses, 1, __ATOMIC_RELAXED) == 2 && fastsm2_pubkey_precompute(&k->pub) != FASTSM2_OK) {
        /* not a key object yet: the call that follows reports it */
    }
    return &k->pub;
}

static void *km_new(void *provctx)
{
    fs2p_key *k = calloc(1, sizeof *k);
    if (k == NULL) {
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "SM2 key");
        return NULL;
    }
    k->pc = provctx;
    k->refs = 1;
    return k;
}

static void km_free(void *keydata)
{
    fs2p_key_unref(keydata);
}

/* Fill the public half from the private key. */
static int set_pub_from_priv(fs2p_key *k)
{
    size_t len = 65;
    int st = fastsm2_privkey_pubkey(&k->pub, &k->priv);
    if (st == FASTSM2_OK)
        st = fastsm2_pubkey_to_bytes(k->pub65, &len, &k->pub, 0);
    k->has_pub = st == FASTSM2_OK;
    return st;
}

static int set_pub_bytes(fs2p_key *k, const unsigned char *in, size_t len)
{
    size_t outlen = 65;
    int st = fastsm2_pubkey_from_bytes(&k->pub, in, len);
    if (st == FASTSM2_OK)
        st = fastsm2_pubkey_to_bytes(k->pub65, &outlen, &k->pub, 0);
    k->has_pub = st == FASTSM2_OK;
    return st;
}

static int km_has(const void *keydata, int selection)
{
    const fs2p_key *k = keydata;
    if (k == NULL)
        return 0;
    int ok = 1; /* the domain parameters are always those of sm2p256v1 */
    if (selection & SELECT_PUB)
        ok &= k->has_pub;
    if (selection & SELECT_PRIV)
        ok &= k->has_priv;
    return ok;
}

static int km_match(const void *a, const void *b, int selection)
{
    const fs2p_key *x = a, *y = b;
    if (!(selection & SELECT_KEYPAIR))
        return 1; /* the same curve */
    /* Public data: a plain comparison. The private keys match when their
     * public keys do (P = dG is one-to-one on [1, n-1]). */
    if (x->has_pub && y->has_pub)
        return memcmp(x->pub65, y->pub65, 65) == 0;
    return 0;
}

static int km_validate(const void *keydata, int selection, int checktype)
{
    (void)checktype;
    /* Every key here was validated when it was made: the point on the
     * curve and not infinity, d in [1, n-2], P = dG. */
    return km_has(keydata, selection);
}

/* "group": absent, or SM2 by name or OID. */
static int group_ok(const OSSL_PARAM *params)
{
    const OSSL_PARAM *p = fs2p_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
    return p == NULL || fs2p_utf8_is(p, "SM2") || fs2p_utf8_is(p, "1.2.156.10197.1.301");
}

static int km_import(void *keydata, int selection, const OSSL_PARAM params[])
{
    fs2p_key *k = keydata;
    if (k == NULL)
        return 0;
    if (!group_ok(params) || (fs2p_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME) == NULL &&
                              fs2p_locate_const(params, OSSL_PKEY_PARAM_EC_P) != NULL)) {
        fs2p_raise(k->pc, FASTSM2_ERR_KEY_FORMAT, "import: a curve other than the named SM2 curve");
        return 0;
    }
    if (!(selection & SELECT_KEYPAIR))
        return 1;
    const OSSL_PARAM *pp = (selection & SELECT_PUB) ? fs2p_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY) : NULL;
    const OSSL_PARAM *pd = (selection & SELECT_PRIV) ? fs2p_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY) : NULL;
    if (pp == NULL && pd == NULL) {
        fs2p_raise(k->pc, FASTSM2_ERR_ARG, "import: neither \"pub\" nor \"priv\"");
        return 0;
    }
    int st = FASTSM2_OK;
    if (pd != NULL) {
        unsigned char d[32];
        if (pd->data_type != OSSL_PARAM_UNSIGNED_INTEGER || pd->data == NULL) {
            st = FASTSM2_ERR_ARG;
        } else {
            fs2p_scalar_from_native(d, pd->data, pd->data_size);
            st = fastsm2_privkey_from_bytes(&k->priv, d);
        }
        fs2p_wipe(d, sizeof d);
        if (st != FASTSM2_OK) {
            fs2p_raise(k->pc, st, "import: \"priv\"");
            return 0;
        }
        k->has_priv = 1;
        st = set_pub_from_priv(k);
    }
    if (st == FASTSM2_OK && pp != NULL) {
        const unsigned char *pub;
        size_t len;
        if (!fs2p_get_octets(pp, &pub, &len)) {
            st = FASTSM2_ERR_ARG;
        } else if (k->has_priv) {
            /* a key pair must agree with itself */
            fs2p_key tmp;
            memset(&tmp, 0, sizeof tmp);
            st = set_pub_bytes(&tmp, pub, len);
            if (st == FASTSM2_OK && memcmp(tmp.pub65, k->pub65, 65) != 0)
                st = FASTSM2_ERR_POINT;
        } else {
            st = set_pub_bytes(k, pub, len);
        }
    }
    if (st != FASTSM2_OK) {
        fs2p_raise(k->pc, st, "import: \"pub\"");
        if (k->has_priv)
            fastsm2_privkey_clear(&k->priv);
        k->has_priv = k->has_pub = 0;
        return 0;
    }
    return 1;
}

#define P_UTF8(key)                                                 \
    {                                                               \
        key, OSSL_PARAM_UTF8_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED \
    }
#define P_OCTETS(key)                                                \
    {                                                                \
        key, OSSL_PARAM_OCTET_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED \
    }
#define P_BN(key)                                                        \
    {                                                                    \
        key, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0, OSSL_PARAM_UNMODIFIED \
    }
#define P_INT(key)                                                        \
    {                                                                     \
        key, OSSL_PARAM_INTEGER, NULL, sizeof(int), OSSL_PARAM_UNMODIFIED \
    }
#define P_END               \
    {                       \
        NULL, 0, NULL, 0, 0 \
    }

static const OSSL_PARAM key_types[] = {P_UTF8(OSSL_PKEY_PARAM_GROUP_NAME),
                                       P_UTF8(OSSL_PKEY_PARAM_EC_ENCODING),
                                       P_UTF8(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT),
                                       P_OCTETS(OSSL_PKEY_PARAM_PUB_KEY),
                                       P_BN(OSSL_PKEY_PARAM_PRIV_KEY),
                                       P_END};

static const OSSL_PARAM *km_io_types(int selection)
{
    (void)selection;
    return key_types;
}

static int km_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    fs2p_key *k = keydata;
    if (k == NULL)
        return 0;
    OSSL_PARAM out[6];
    int n = 0;
    unsigned char dn[32];
    /* The domain parameters go with every key part: OpenSSL's EC import
     * takes a key only with its group. */
    out[n++] = (OSSL_PARAM){OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PARAM_UTF8_STRING, (void *)"SM2", 3, 0};
    out[n++] = (OSSL_PARAM){OSSL_PKEY_PARAM_EC_ENCODING, OSSL_PARAM_UTF8_STRING, (void *)"named_curve", 11, 0};
    out[n++] =
        (OSSL_PARAM){OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, OSSL_PARAM_UTF8_STRING, (void *)"uncompressed", 12, 0};
    if ((selection & SELECT_PUB) && k->has_pub)
        out[n++] = (OSSL_PARAM){OSSL_PKEY_PARAM_PUB_KEY, OSSL_PARAM_OCTET_STRING, k->pub65, 65, 0};
    if ((selection & SELECT_PRIV) && k->has_priv) {
        unsigned char d[32];
        if (fastsm2_privkey_to_bytes(d, &k->priv) != FASTSM2_OK)
            return 0;
        fs2p_scalar_to_native(dn, 32, d);
        fs2p_wipe(d, sizeof d);
        out[n++] = (OSSL_PARAM){OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_UNSIGNED_INTEGER, dn, 32, 0};
    }
    out[n] = (OSSL_PARAM)P_END;
    int ret = cb(out, cbarg);
    fs2p_wipe(dn, sizeof dn);
    return ret;
}

static const OSSL_PARAM gettable[] = {P_INT(OSSL_PKEY_PARAM_BITS),
                                      P_INT(OSSL_PKEY_PARAM_SECURITY_BITS),
                                      P_INT(OSSL_PKEY_PARAM_MAX_SIZE),
                                      P_UTF8(OSSL_PKEY_PARAM_DEFAULT_DIGEST),
                                      P_UTF8(OSSL_PKEY_PARAM_GROUP_NAME),
                                      P_OCTETS(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY),
                                      P_OCTETS(OSSL_PKEY_PARAM_PUB_KEY),
                                      P_BN(OSSL_PKEY_PARAM_PRIV_KEY),
                                      P_END};

static const OSSL_PARAM *km_gettable_params(void *provctx)
{
    (void)provctx;
    return gettable;
}

static int km_get_params(void *keydata, OSSL_PARAM params[])
{
    fs2p_key *k = keydata;
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_BITS)) && !fs2p_set_int(p, 256))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) && !fs2p_set_int(p, 128))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) && !fs2p_set_int(p, FASTSM2_SIG_DER_MAX))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) && !fs2p_set_utf8(p, "SM3"))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_GROUP_NAME)) && !fs2p_set_utf8(p, "SM2"))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) &&
        (!k->has_pub || !fs2p_set_octets(p, k->pub65, 65)))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) && (!k->has_pub || !fs2p_set_octets(p, k->pub65, 65)))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PKEY_PARAM_PRIV_KEY))) {
        if (!k->has_priv || p->data_type != OSSL_PARAM_UNSIGNED_INTEGER)
            return 0;
        p->return_size = 32;
        if (p->data != NULL) {
            unsigned char d[32];
            if (p->data_size < 32 || fastsm2_privkey_to_bytes(d, &k->priv) != FASTSM2_OK)
                return 0;
            fs2p_scalar_to_native(p->data, p->data_size, d);
            fs2p_wipe(d, sizeof d);
        }
    }
    return 1;
}

static const OSSL_PARAM settable[] = {P_OCTETS(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY), P_END};

static const OSSL_PARAM *km_settable_params(void *provctx)
{
    (void)provctx;
    return settable;
}

static int km_set_params(void *keydata, const OSSL_PARAM params[])
{
    fs2p_key *k = keydata;
    const OSSL_PARAM *p = fs2p_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    if (p == NULL)
        return 1;
    const unsigned char *pub;
    size_t len;
    int st = FASTSM2_ERR_ARG;
    if (k->has_priv) /* a key pair keeps the public key of its d */
        st = FASTSM2_ERR_STATE;
    else if (fs2p_get_octets(p, &pub, &len))
        st = set_pub_bytes(k, pub, len);
    if (st != FASTSM2_OK) {
        fs2p_raise(k->pc, st, "set \"encoded-pub-key\"");
        return 0;
    }
    return 1;
}

static void *km_dup(const void *src, int selection)
{
    const fs2p_key *s = src;
    fs2p_key *k = km_new(s->pc);
    if (k == NULL)
        return NULL;
    if ((selection & SELECT_PUB) && s->has_pub) {
        /* from its bytes, not a copy of s->pub, whose tables another
         * thread may be making (fs2p_key_pub_use) */
        if (fastsm2_pubkey_from_bytes(&k->pub, s->pub65, 65) != FASTSM2_OK) {
            fs2p_key_unref(k);
            return NULL;
        }
        memcpy(k->pub65, s->pub65, 65);
        k->has_pub = 1;
    }
    if ((selection & SELECT_PRIV) && s->has_priv) {
        k->priv = s->priv;
        k->has_priv = 1;
        if (!k->has_pub && set_pub_from_priv(k) != FASTSM2_OK) {
            km_free(k);
            return NULL;
        }
    }
    return k;
}

/* Key exchange is "SM2DH", as Tongsuo names it (prov_exchange.c). */
static const char *km_query_operation_name(int operation_id)
{
    return operation_id == OSSL_OP_KEYEXCH ? "SM2DH" : "SM2";
}

/* ---- generation ------------------------------------------------------------- */

typedef struct {
    fs2p_provctx *pc;
    int selection;
} gen_ctx;

static int gen_set_params(void *genctx, const OSSL_PARAM params[])
{
    gen_ctx *g = genctx;
    if (!group_ok(params)) {
        fs2p_raise(g->pc, FASTSM2_ERR_KEY_FORMAT, "keygen: a group other than SM2");
        return 0;
    }
    return 1;
}

static void *gen_init(void *provctx, int selection, const OSSL_PARAM params[])
{
    gen_ctx *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->pc = provctx;
    g->selection = selection;
    if (!gen_set_params(g, params)) {
        free(g);
        return NULL;
    }
    return g;
}

static const OSSL_PARAM gen_settable[] = {P_UTF8(OSSL_PKEY_PARAM_GROUP_NAME), P_UTF8(OSSL_PKEY_PARAM_EC_ENCODING),
                                          P_UTF8(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT), P_END};

static const OSSL_PARAM *gen_settable_params(void *genctx, void *provctx)
{
    (void)genctx;
    (void)provctx;
    return gen_settable;
}

static void *gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
    (void)cb;
    (void)cbarg;
    gen_ctx *g = genctx;
    fs2p_key *k = km_new(g->pc);
    if (k == NULL || !(g->selection & SELECT_KEYPAIR))
        return k; /* domain parameters only: the curve */
    int st = fastsm2_privkey_generate(&k->priv);
    if (st == FASTSM2_OK) {
        k->has_priv = 1;
        st = set_pub_from_priv(k);
    }
    if (st != FASTSM2_OK) {
        fs2p_raise(g->pc, st, "keygen");
        km_free(k);
        return NULL;
    }
    return k;
}

static void gen_cleanup(void *genctx)
{
    free(genctx);
}

#define F(id, fn)                \
    {                            \
        id, (void (*)(void))(fn) \
    }
const OSSL_DISPATCH fs2p_keymgmt_functions[] = {F(OSSL_FUNC_KEYMGMT_NEW, km_new),
                                                F(OSSL_FUNC_KEYMGMT_FREE, km_free),
                                                F(OSSL_FUNC_KEYMGMT_GEN_INIT, gen_init),
                                                F(OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, gen_set_params),
                                                F(OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, gen_settable_params),
                                                F(OSSL_FUNC_KEYMGMT_GEN, gen),
                                                F(OSSL_FUNC_KEYMGMT_GEN_CLEANUP, gen_cleanup),
                                                F(OSSL_FUNC_KEYMGMT_GET_PARAMS, km_get_params),
                                                F(OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, km_gettable_params),
                                                F(OSSL_FUNC_KEYMGMT_SET_PARAMS, km_set_params),
                                                F(OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, km_settable_params),
                                                F(OSSL_FUNC_KEYMGMT_HAS, km_has),
                                                F(OSSL_FUNC_KEYMGMT_MATCH, km_match),
                                                F(OSSL_FUNC_KEYMGMT_VALIDATE, km_validate),
                                                F(OSSL_FUNC_KEYMGMT_IMPORT, km_import),
                                                F(OSSL_FUNC_KEYMGMT_IMPORT_TYPES, km_io_types),
                                                F(OSSL_FUNC_KEYMGMT_EXPORT, km_export),
                                                F(OSSL_FUNC_KEYMGMT_EXPORT_TYPES, km_io_types),
                                                F(OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, km_query_operation_name),
                                                F(OSSL_FUNC_KEYMGMT_DUP, km_dup),
                                                {0, NULL}};
