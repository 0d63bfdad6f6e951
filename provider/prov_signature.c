/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 signatures with SM3 (provider-signature(7)), GB/T 32918.2: on a
 * message through EVP_DigestSign/Verify (e = SM3(Z_A || M), 6.1 A1-A2),
 * and on a 32-byte digest e through EVP_PKEY_sign/verify. Signatures are
 * strict DER (GM/T 0009 SM2Signature), as OpenSSL writes them.
 *
 * The signer ID is the "distid" parameter. With no distid, an operation
 * hashes what the host's own SM2 code hashes: an empty ID on OpenSSL 3.x,
 * GB/T 32918.2's default 1234567812345678 on OpenSSL 4.0 and later and on
 * Tongsuo (fs2p_provctx.no_id_is_default): set distid to be independent of
 * them all.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prov.h"

/* AlgorithmIdentifier { OID 1.2.156.10197.1.501 (SM2 with SM3) }, no
 * parameters: what the default provider reports for X.509. */
static const unsigned char sm2_with_sm3_aid[] = {0x30, 0x0A, 0x06, 0x08, 0x2A, 0x81,
                                                 0x1C, 0xCF, 0x55, 0x01, 0x83, 0x75};

typedef struct {
    fs2p_provctx *pc;
    fs2p_key *key;
    unsigned char *id; /* NULL: none set (empty ID) */
    size_t idlen;
    int z_done;    /* Z_A is computed (and, while streaming, absorbed) */
    int streaming; /* a DigestSign/Verify init happened */
    unsigned char z[32];
    fastsm2_sm3_ctx h;
} sig_ctx;

static void *sig_newctx(void *provctx, const char *propq)
{
    (void)propq;
    sig_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "signature context");
    else
        c->pc = provctx;
    return c;
}

static void sig_freectx(void *vctx)
{
    sig_ctx *c = vctx;
    if (c == NULL)
        return;
    fs2p_key_unref(c->key);
    free(c->id);
    fs2p_wipe(c, sizeof *c);
    free(c);
}

static void *sig_dupctx(void *vctx)
{
    const sig_ctx *s = vctx;
    sig_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    c->id = NULL;
    if (s->idlen > 0 || s->id != NULL) {
        c->id = malloc(s->idlen ? s->idlen : 1);
        if (c->id == NULL) {
            free(c);
            return NULL;
        }
        memcpy(c->id, s->id, s->idlen);
    }
    if (c->key != NULL)
        fs2p_key_ref(c->key);
    return c;
}

static int is_sm3(const char *name)
{
    return name == NULL || strcasecmp(name, "SM3") == 0 || strcmp(name, "1.2.156.10197.1.401") == 0;
}

static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    sig_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if ((p = fs2p_locate_const(params, OSSL_PKEY_PARAM_DIST_ID)) != NULL) {
        const unsigned char *id;
        size_t len;
        if (c->z_done && c->streaming) { /* too late: Z_A is in the hash */
            fs2p_raise(c->pc, FASTSM2_ERR_STATE, "distid set after the message started");
            return 0;
        }
        if (!fs2p_get_octets(p, &id, &len))
            return 0;
        if (len > FASTSM2_MAX_ID_LEN) {
            fs2p_raise(c->pc, FASTSM2_ERR_ID, "distid");
            return 0;
        }
        unsigned char *copy = malloc(len ? len : 1);
        if (copy == NULL)
            return 0;
        if (len)
            memcpy(copy, id, len);
        free(c->id);
        c->id = copy;
        c->idlen = len;
        c->z_done = 0;
    }
    if ((p = fs2p_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST_SIZE)) != NULL) {
        size_t n;
        if (!fs2p_get_size_t(p, &n) || n != FASTSM2_SM3_DIGEST_SIZE)
            return 0;
    }
    if ((p = fs2p_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL) {
        if (!fs2p_utf8_is(p, "SM3") && !fs2p_utf8_is(p, "1.2.156.10197.1.401")) {
            fs2p_raise(c->pc, FASTSM2_ERR_ARG, "digest: SM2 signs with SM3 only");
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM settable[] = {
    {OSSL_SIGNATURE_PARAM_DIGEST_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), OSSL_PARAM_UNMODIFIED},
    {OSSL_SIGNATURE_PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {OSSL_PKEY_PARAM_DIST_ID, OSSL_PARAM_OCTET_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {NULL, 0, NULL, 0, 0}};

static const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return settable;
}

static int sig_get_ctx_params(void *vctx, OSSL_PARAM *params)
{
    (void)vctx;
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) != NULL &&
        !fs2p_set_octets(p, sm2_with_sm3_aid, sizeof sm2_with_sm3_aid))
        return 0;
    if ((p = fs2p_locate(params, OSSL_SIGNATURE_PARAM_DIGEST_SIZE)) != NULL &&
        !fs2p_set_size_t(p, FASTSM2_SM3_DIGEST_SIZE))
        return 0;
    if ((p = fs2p_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL && !fs2p_set_utf8(p, "SM3"))
        return 0;
    return 1;
}

static const OSSL_PARAM gettable[] = {
    {OSSL_SIGNATURE_PARAM_ALGORITHM_ID, OSSL_PARAM_OCTET_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {OSSL_SIGNATURE_PARAM_DIGEST_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), OSSL_PARAM_UNMODIFIED},
    {OSSL_SIGNATURE_PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {NULL, 0, NULL, 0, 0}};

static const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return gettable;
}

/* Take the key (signing needs its private half) and the parameters. */
static int sig_init(sig_ctx *c, void *keydata, const OSSL_PARAM params[], int sign)
{
    fs2p_key *k = keydata;
    if (c == NULL)
        return 0;
    if (k != NULL) {
        fs2p_key_ref(k);
        fs2p_key_unref(c->key);
        c->key = k;
        c->z_done = 0;
    }
    if (c->key == NULL || !(sign ? c->key->has_priv : c->key->has_pub)) {
        fs2p_raise(c->pc, FASTSM2_ERR_ARG, sign ? "sign: no private key" : "verify: no public key");
        return 0;
    }
    c->streaming = 0;
    return sig_set_ctx_params(c, params);
}

static int sig_sign_init(void *vctx, void *key, const OSSL_PARAM params[])
{
    return sig_init(vctx, key, params, 1);
}
static int sig_verify_init(void *vctx, void *key, const OSSL_PARAM params[])
{
    return sig_init(vctx, key, params, 0);
}

/* Sign e (GB/T 32918.2 6.1 A3-A7) into DER. */
static int sign_e(sig_ctx *c, unsigned char *sig, size_t *siglen, size_t sigsize, const unsigned char e[32])
{
    unsigned char raw[64];
    size_t len = sigsize;
    int st = fastsm2_sign_digest(raw, &c->key->priv, e);
    if (st == FASTSM2_OK)
        st = fastsm2_sig_to_der(sig, &len, raw);
    if (st != FASTSM2_OK) {
        fs2p_raise(c->pc, st, "sign");
        return 0;
    }
    *siglen = len;
    return 1;
}

/* Verify a DER signature on e (7.1 B1-B7): 1 or 0. */
static int verify_e(sig_ctx *c, const unsigned char *sig, size_t siglen, const unsigned char e[32])
{
    unsigned char raw[64];
    int st = fastsm2_sig_from_der(raw, sig, siglen);
    if (st == FASTSM2_OK)
        st = fastsm2_verify_digest_status(fs2p_key_pub_use(c->key), e, raw);
    if (st != FASTSM2_OK) {
        fs2p_raise(c->pc, st, "verify");
        return 0;
    }
    return 1;
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize, const unsigned char *tbs,
                    size_t tbslen)
{
    sig_ctx *c = vctx;
    if (sig == NULL) {
        *siglen = FASTSM2_SIG_DER_MAX;
        return 1;
    }
    if (tbslen != FASTSM2_SM3_DIGEST_SIZE) {
        fs2p_raise(c->pc, FASTSM2_ERR_LENGTH, "sign: the digest must be 32 bytes");
        return 0;
    }
    return sign_e(c, sig, siglen, sigsize, tbs);
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen, const unsigned char *tbs, size_t tbslen)
{
    sig_ctx *c = vctx;
    if (tbslen != FASTSM2_SM3_DIGEST_SIZE) {
        fs2p_raise(c->pc, FASTSM2_ERR_LENGTH, "verify: the digest must be 32 bytes");
        return 0;
    }
    return verify_e(c, sig, siglen, tbs);
}

/* Z_A for the context's ID, once per key and ID. */
static int need_z(sig_ctx *c)
{
    if (c->z_done)
        return 1;
    /* no distid: the host's default provider's choice (prov.h) */
    int st = c->id == NULL && c->pc->no_id_is_default
                 ? fs2p_compute_z(c->z, c->key, (const unsigned char *)FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN)
                 : fs2p_compute_z(c->z, c->key, c->id, c->id ? c->idlen : 0);
    if (st != FASTSM2_OK) {
        fs2p_raise(c->pc, st, "Z_A");
        return 0;
    }
    c->z_done = 1;
    return 1;
}

static int dsig_init(void *vctx, const char *mdname, void *key, const OSSL_PARAM params[], int sign)
{
    sig_ctx *c = vctx;
    if (!is_sm3(mdname)) {
        fs2p_raise(c->pc, FASTSM2_ERR_ARG, "digest: SM2 signs with SM3 only");
        return 0;
    }
    if (!sig_init(c, key, params, sign))
        return 0;
    c->streaming = 1;
    c->z_done = 0; /* Z_A goes into the hash at the first update */
    fastsm2_sm3_init(&c->h);
    return 1;
}

static int dsig_sign_init(void *vctx, const char *mdname, void *key, const OSSL_PARAM params[])
{
    return dsig_init(vctx, mdname, key, params, 1);
}

static int dsig_verify_init(void *vctx, const char *mdname, void *key, const OSSL_PARAM params[])
{
    return dsig_init(vctx, mdname, key, params, 0);
}

static int start_stream(sig_ctx *c)
{
    if (c->z_done)
        return 1;
    if (!need_z(c))
        return 0;
    fastsm2_sm3_update(&c->h, c->z, 32);
    return 1;
}

static int dsig_update(void *vctx, const unsigned char *data, size_t len)
{
    sig_ctx *c = vctx;
    if (c == NULL || !c->streaming || !start_stream(c))
        return 0;
    fastsm2_sm3_update(&c->h, data, len);
    return 1;
}

static int dsig_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize)
{
    sig_ctx *c = vctx;
    if (sig == NULL) {
        *siglen = FASTSM2_SIG_DER_MAX;
        return 1;
    }
    if (!c->streaming || !start_stream(c))
        return 0;
    unsigned char e[32];
    fastsm2_sm3_final(e, &c->h);
    c->streaming = 0;
    return sign_e(c, sig, siglen, sigsize, e);
}

static int dsig_verify_final(void *vctx, const unsigned char *sig, size_t siglen)
{
    sig_ctx *c = vctx;
    if (!c->streaming || !start_stream(c))
        return 0;
    unsigned char e[32];
    fastsm2_sm3_final(e, &c->h);
    c->streaming = 0;
    return verify_e(c, sig, siglen, e);
}

/* The one-shot forms: e = SM3(Z_A || M) without the streaming state; Z_A
 * stays in the context, so a context signs many messages cheaply. */
static void e_of(unsigned char e[32], const sig_ctx *c, const unsigned char *m, size_t len)
{
    fastsm2_sm3_ctx h;
    fastsm2_sm3_init(&h);
    fastsm2_sm3_update(&h, c->z, 32);
    fastsm2_sm3_update(&h, m, len);
    fastsm2_sm3_final(e, &h);
}

static int dsig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize, const unsigned char *tbs,
                     size_t tbslen)
{
    sig_ctx *c = vctx;
    if (sig == NULL) {
        *siglen = FASTSM2_SIG_DER_MAX;
        return 1;
    }
    if (c->key == NULL || !need_z(c))
        return 0;
    unsigned char e[32];
    e_of(e, c, tbs, tbslen);
    c->streaming = 0;
    return sign_e(c, sig, siglen, sigsize, e);
}

static int dsig_verify(void *vctx, const unsigned char *sig, size_t siglen, const unsigned char *tbs, size_t tbslen)
{
    sig_ctx *c = vctx;
    if (c->key == NULL || !need_z(c))
        return 0;
    unsigned char e[32];
    e_of(e, c, tbs, tbslen);
    c->streaming = 0;
    return verify_e(c, sig, siglen, e);
}

#define F(id, fn)                \
    {                            \
        id, (void (*)(void))(fn) \
    }
const OSSL_DISPATCH fs2p_signature_functions[] = {F(OSSL_FUNC_SIGNATURE_NEWCTX, sig_newctx),
                                                  F(OSSL_FUNC_SIGNATURE_FREECTX, sig_freectx),
                                                  F(OSSL_FUNC_SIGNATURE_DUPCTX, sig_dupctx),
                                                  F(OSSL_FUNC_SIGNATURE_SIGN_INIT, sig_sign_init),
                                                  F(OSSL_FUNC_SIGNATURE_SIGN, sig_sign),
                                                  F(OSSL_FUNC_SIGNATURE_VERIFY_INIT, sig_verify_init),
                                                  F(OSSL_FUNC_SIGNATURE_VERIFY, sig_verify),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, dsig_sign_init),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, dsig_update),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, dsig_sign_final),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_SIGN, dsig_sign),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, dsig_verify_init),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, dsig_update),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, dsig_verify_final),
                                                  F(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, dsig_verify),
                                                  F(OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, sig_get_ctx_params),
                                                  F(OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, sig_gettable_ctx_params),
                                                  F(OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, sig_set_ctx_params),
                                                  F(OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, sig_settable_ctx_params),
                                                  {0, NULL}};
