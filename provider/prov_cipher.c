/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 public-key encryption (provider-asym_cipher(7)), GB/T 32918.4 with
 * SM3, ciphertexts in GM/T 0009 DER (SEQUENCE { x, y, C3, C2 }), as
 * OpenSSL writes and reads them. The "digest" parameter names SM3 (the
 * default provider takes other digests too; this one refuses them).
 */
#include <stdlib.h>
#include <string.h>

#include "prov.h"

typedef struct {
    fs2p_provctx *pc;
    fs2p_key *key;
} enc_ctx;

static void *enc_newctx(void *provctx)
{
    enc_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "encryption context");
    else
        c->pc = provctx;
    return c;
}

static void enc_freectx(void *vctx)
{
    enc_ctx *c = vctx;
    if (c == NULL)
        return;
    fs2p_key_unref(c->key);
    free(c);
}

static void *enc_dupctx(void *vctx)
{
    const enc_ctx *s = vctx;
    enc_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    if (c->key != NULL)
        fs2p_key_ref(c->key);
    return c;
}

static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    enc_ctx *c = vctx;
    const OSSL_PARAM *p = fs2p_locate_const(params, OSSL_ASYM_CIPHER_PARAM_DIGEST);
    if (p != NULL && !fs2p_utf8_is(p, "SM3") && !fs2p_utf8_is(p, "1.2.156.10197.1.401")) {
        fs2p_raise(c->pc, FASTSM2_ERR_ARG, "digest: this provider encrypts with SM3 only");
        return 0;
    }
    return 1;
}

static const OSSL_PARAM settable[] = {
    {OSSL_ASYM_CIPHER_PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {OSSL_ASYM_CIPHER_PARAM_PROPERTIES, OSSL_PARAM_UTF8_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {NULL, 0, NULL, 0, 0}};

static const OSSL_PARAM *enc_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return settable;
}

static int enc_get_ctx_params(void *vctx, OSSL_PARAM *params)
{
    (void)vctx;
    OSSL_PARAM *p = fs2p_locate(params, OSSL_ASYM_CIPHER_PARAM_DIGEST);
    return p == NULL || fs2p_set_utf8(p, "SM3");
}

static const OSSL_PARAM gettable[] = {
    {OSSL_ASYM_CIPHER_PARAM_DIGEST, OSSL_PARAM_UTF8_STRING, NULL, 0, OSSL_PARAM_UNMODIFIED}, {NULL, 0, NULL, 0, 0}};

static const OSSL_PARAM *enc_gettable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return gettable;
}

static int enc_init(enc_ctx *c, void *keydata, const OSSL_PARAM params[], int decrypt)
{
    fs2p_key *k = keydata;
    if (c == NULL || k == NULL)
        return 0;
    if (!(decrypt ? k->has_priv : k->has_pub)) {
        fs2p_raise(c->pc, FASTSM2_ERR_ARG, decrypt ? "decrypt: no private key" : "encrypt: no public key");
        return 0;
    }
    fs2p_key_ref(k);
    fs2p_key_unref(c->key);
    c->key = k;
    return enc_set_ctx_params(c, params);
}

static int enc_encrypt_init(void *vctx, void *key, const OSSL_PARAM params[])
{
    return enc_init(vctx, key, params, 0);
}
static int enc_decrypt_init(void *vctx, void *key, const OSSL_PARAM params[])
{
    return enc_init(vctx, key, params, 1);
}

/* Encrypt (GB/T 32918.4 6.1) or decrypt (7.1). The size query answers the
 * ciphertext's size for a plaintext, and for a ciphertext its plaintext's
 * length once the ciphertext's layout and C1 are checked: a malformed one
 * fails here, as in OpenSSL's default provider. */
static int enc_crypt(enc_ctx *c, unsigned char *out, size_t *outlen, size_t outsize, const unsigned char *in,
                     size_t inlen, int decrypt)
{
    if (out == NULL && !decrypt) {
        *outlen = fastsm2_ciphertext_size(inlen, FASTSM2_CT_DER);
        return 1;
    }
    if (out == NULL) {
        int st = fastsm2_plaintext_size(outlen, in, inlen, FASTSM2_CT_DER);
        if (st != FASTSM2_OK) {
            fs2p_raise(c->pc, st, "decrypt");
            return 0;
        }
        return 1;
    }
    size_t len = outsize;
    int st;
    if (decrypt)
        st = fastsm2_decrypt(out, &len, &c->key->priv, in, inlen, FASTSM2_CT_DER);
    else /* an empty message has no ciphertext (its KDF output is "all zero") */
        st = inlen == 0 ? FASTSM2_ERR_LENGTH
                        : fastsm2_encrypt(out, &len, fs2p_key_pub_use(c->key), in, inlen, FASTSM2_CT_DER);
    if (st != FASTSM2_OK) {
        fs2p_raise(c->pc, st, decrypt ? "decrypt" : "encrypt");
        return 0;
    }
    *outlen = len;
    return 1;
}

static int enc_encrypt(void *vctx, unsigned char *out, size_t *outlen, size_t outsize, const unsigned char *in,
                       size_t inlen)
{
    return enc_crypt(vctx, out, outlen, outsize, in, inlen, 0);
}
static int enc_decrypt(void *vctx, unsigned char *out, size_t *outlen, size_t outsize, const unsigned char *in,
                       size_t inlen)
{
    return enc_crypt(vctx, out, outlen, outsize, in, inlen, 1);
}

#define F(id, fn)                \
    {                            \
        id, (void (*)(void))(fn) \
    }
const OSSL_DISPATCH fs2p_asym_cipher_functions[] = {
    F(OSSL_FUNC_ASYM_CIPHER_NEWCTX, enc_newctx),
    F(OSSL_FUNC_ASYM_CIPHER_FREECTX, enc_freectx),
    F(OSSL_FUNC_ASYM_CIPHER_DUPCTX, enc_dupctx),
    F(OSSL_FUNC_ASYM_CIPHER_ENCRYPT_INIT, enc_encrypt_init),
    F(OSSL_FUNC_ASYM_CIPHER_ENCRYPT, enc_encrypt),
    F(OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT, enc_decrypt_init),
    F(OSSL_FUNC_ASYM_CIPHER_DECRYPT, enc_decrypt),
    F(OSSL_FUNC_ASYM_CIPHER_GET_CTX_PARAMS, enc_get_ctx_params),
    F(OSSL_FUNC_ASYM_CIPHER_GETTABLE_CTX_PARAMS, enc_gettable_ctx_params),
    F(OSSL_FUNC_ASYM_CIPHER_SET_CTX_PARAMS, enc_set_ctx_params),
    F(OSSL_FUNC_ASYM_CIPHER_SETTABLE_CTX_PARAMS, enc_settable_ctx_params),
    {0, NULL}};

/* ---- SM3 (provider-digest(7)), GB/T 32905 ---------------------------------- */

static void *sm3_newctx(void *provctx)
{
    (void)provctx;
    return malloc(sizeof(fastsm2_sm3_ctx));
}

static void sm3_freectx(void *vctx)
{
    free(vctx);
}

static void *sm3_dupctx(void *vctx)
{
    fastsm2_sm3_ctx *c = malloc(sizeof *c);
    if (c != NULL) /* the state holds no pointers */
        memcpy(c, vctx, sizeof *c);
    return c;
}

static int sm3_init(void *vctx, const OSSL_PARAM params[])
{
    (void)params;
    fastsm2_sm3_init(vctx);
    return 1;
}

static int sm3_update(void *vctx, const unsigned char *in, size_t len)
{
    fastsm2_sm3_update(vctx, in, len);
    return 1;
}

static int sm3_final(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    if (outsz < FASTSM2_SM3_DIGEST_SIZE)
        return 0;
    fastsm2_sm3_final(out, vctx);
    *outl = FASTSM2_SM3_DIGEST_SIZE;
    return 1;
}

static int sm3_digest(void *provctx, const unsigned char *in, size_t len, unsigned char *out, size_t *outl,
                      size_t outsz)
{
    (void)provctx;
    if (outsz < FASTSM2_SM3_DIGEST_SIZE)
        return 0;
    fastsm2_sm3(out, in, len);
    *outl = FASTSM2_SM3_DIGEST_SIZE;
    return 1;
}

static int sm3_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) && !fs2p_set_size_t(p, FASTSM2_SM3_BLOCK_SIZE))
        return 0;
    if ((p = fs2p_locate(params, OSSL_DIGEST_PARAM_SIZE)) && !fs2p_set_size_t(p, FASTSM2_SM3_DIGEST_SIZE))
        return 0;
    if ((p = fs2p_locate(params, OSSL_DIGEST_PARAM_XOF)) && !fs2p_set_int(p, 0))
        return 0;
    if ((p = fs2p_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) && !fs2p_set_int(p, 0))
        return 0;
    return 1;
}

static const OSSL_PARAM sm3_gettable[] = {
    {OSSL_DIGEST_PARAM_BLOCK_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), OSSL_PARAM_UNMODIFIED},
    {OSSL_DIGEST_PARAM_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t), OSSL_PARAM_UNMODIFIED},
    {OSSL_DIGEST_PARAM_XOF, OSSL_PARAM_INTEGER, NULL, sizeof(int), OSSL_PARAM_UNMODIFIED},
    {OSSL_DIGEST_PARAM_ALGID_ABSENT, OSSL_PARAM_INTEGER, NULL, sizeof(int), OSSL_PARAM_UNMODIFIED},
    {NULL, 0, NULL, 0, 0}};

static const OSSL_PARAM *sm3_gettable_params(void *provctx)
{
    (void)provctx;
    return sm3_gettable;
}

const OSSL_DISPATCH fs2p_sm3_functions[] = {F(OSSL_FUNC_DIGEST_NEWCTX, sm3_newctx),
                                            F(OSSL_FUNC_DIGEST_FREECTX, sm3_freectx),
                                            F(OSSL_FUNC_DIGEST_DUPCTX, sm3_dupctx),
                                            F(OSSL_FUNC_DIGEST_INIT, sm3_init),
                                            F(OSSL_FUNC_DIGEST_UPDATE, sm3_update),
                                            F(OSSL_FUNC_DIGEST_FINAL, sm3_final),
                                            F(OSSL_FUNC_DIGEST_DIGEST, sm3_digest),
                                            F(OSSL_FUNC_DIGEST_GET_PARAMS, sm3_get_params),
                                            F(OSSL_FUNC_DIGEST_GETTABLE_PARAMS, sm3_gettable_params),
                                            {0, NULL}};
