/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 ciphers of the provider under valgrind memcheck (part of
 * test_provider_ctime): the key and the plaintext are marked secret before
 * the provider's dispatch functions see them, and every mode runs an
 * encryption and a decryption, the AEAD modes their tag checks (a good tag
 * and a bad one), SM4-CBC a TLS record with its padding and MAC taken off
 * (padding good and bad), SM4-GCM and SM4-CCM a TLS record each. Results
 * are marked public where a caller may see them, then checked.
 */
#include <string.h>

#include "ctime.h" /* tests/ctime: SECRET, PUBLIC, CT_CHECK */
#include "prov.h"

int ctime_sm4(void);

extern const OSSL_DISPATCH fs2p_sm4_ecb_functions[], fs2p_sm4_cbc_functions[], fs2p_sm4_ctr_functions[],
    fs2p_sm4_ofb_functions[], fs2p_sm4_cfb_functions[], fs2p_sm4_gcm_functions[], fs2p_sm4_ccm_functions[],
    fs2p_sm4_xts_functions[];

typedef struct {
    OSSL_FUNC_cipher_newctx_fn *newctx;
    OSSL_FUNC_cipher_encrypt_init_fn *einit;
    OSSL_FUNC_cipher_decrypt_init_fn *dinit;
    OSSL_FUNC_cipher_update_fn *update;
    OSSL_FUNC_cipher_final_fn *final;
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_set_ctx_params_fn *set;
    OSSL_FUNC_cipher_get_ctx_params_fn *get;
} cipher_fns;

static cipher_fns fns_of(const OSSL_DISPATCH *t)
{
    cipher_fns f;
    memset(&f, 0, sizeof f);
    for (; t->function_id != 0; t++) {
        switch (t->function_id) {
        case OSSL_FUNC_CIPHER_NEWCTX: f.newctx = (OSSL_FUNC_cipher_newctx_fn *)t->function; break;
        case OSSL_FUNC_CIPHER_ENCRYPT_INIT: f.einit = (OSSL_FUNC_cipher_encrypt_init_fn *)t->function; break;
        case OSSL_FUNC_CIPHER_DECRYPT_INIT: f.dinit = (OSSL_FUNC_cipher_decrypt_init_fn *)t->function; break;
        case OSSL_FUNC_CIPHER_UPDATE: f.update = (OSSL_FUNC_cipher_update_fn *)t->function; break;
        case OSSL_FUNC_CIPHER_FINAL: f.final = (OSSL_FUNC_cipher_final_fn *)t->function; break;
        case OSSL_FUNC_CIPHER_FREECTX: f.freectx = (OSSL_FUNC_cipher_freectx_fn *)t->function; break;
        case OSSL_FUNC_CIPHER_SET_CTX_PARAMS: f.set = (OSSL_FUNC_cipher_set_ctx_params_fn *)t->function; break;
        case OSSL_FUNC_CIPHER_GET_CTX_PARAMS: f.get = (OSSL_FUNC_cipher_get_ctx_params_fn *)t->function; break;
        }
    }
    return f;
}

static fs2p_provctx pc; /* no core: errors go nowhere */
static unsigned long passed, failed;

#define CHECK_SM4(cond)                                                                        \
    do {                                                                                       \
        if (cond)                                                                              \
            passed++;                                                                          \
        else                                                                                   \
            failed++, fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    } while (0)

/* Public copies of the inputs (for the checks) and secret ones (for the
 * provider). */
static unsigned char key_pub[32], pt_pub[300];

static void secret_copy(unsigned char *dst, const unsigned char *src, size_t n)
{
    memcpy(dst, src, n);
    SECRET(dst, n);
}

/* Encrypt and decrypt len bytes in one of the five plain modes; padding
 * on for ECB and CBC. */
static void plain_mode(const OSSL_DISPATCH *t, size_t len, int pad)
{
    cipher_fns f = fns_of(t);
    unsigned char key[16], pt[300], ct[340], out[340], iv[16];
    size_t n1 = 0, n2 = 0, m1 = 0, m2 = 0;
    unsigned int padv = (unsigned)pad;
    OSSL_PARAM pp[] = {{OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_UNSIGNED_INTEGER, &padv, sizeof padv, 0},
                       {NULL, 0, NULL, 0, 0}};
    memset(iv, 0x3C, 16);
    secret_copy(key, key_pub, 16);
    secret_copy(pt, pt_pub, len);
    void *c = f.newctx(&pc);
    int ok = f.einit(c, key, 16, iv, 16, pp) && f.update(c, ct, &n1, sizeof ct, pt, len) &&
             f.final(c, ct + n1, &n2, sizeof ct - n1);
    PUBLIC(ct, sizeof ct); /* a ciphertext is public */
    CHECK_SM4(ok);
    secret_copy(key, key_pub, 16);
    ok = f.dinit(c, key, 16, iv, 16, pp) && f.update(c, out, &m1, sizeof out, ct, n1 + n2) &&
         f.final(c, out + m1, &m2, sizeof out - m1);
    PUBLIC(out, sizeof out);
    PUBLIC(&m1, sizeof m1); /* lengths written are the caller's to see */
    PUBLIC(&m2, sizeof m2);
    CHECK_SM4(ok && m1 + m2 == len && memcmp(out, pt_pub, len) == 0);
    f.freectx(c);
}

static void aead_mode(int ccm)
{
    cipher_fns f = fns_of(ccm ? fs2p_sm4_ccm_functions : fs2p_sm4_gcm_functions);
    unsigned char key[16], pt[200], ct[200], out[200], tag[16], iv[12], aad[20];
    size_t len = 150, n = 0, z = 0, ivlen = 12, taglen = 16;
    memset(iv, 0x5B, 12);
    memset(aad, 0xA0, 20);
    for (int bad = 0; bad < 2; bad++) {
        OSSL_PARAM setup[] = {{OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER, &ivlen, sizeof ivlen, 0},
                              {OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING, NULL, taglen, 0},
                              {NULL, 0, NULL, 0, 0}};
        secret_copy(key, key_pub, 16);
        secret_copy(pt, pt_pub, len);
        void *c = f.newctx(&pc);
        int ok = f.set(c, ccm ? setup : NULL) && f.einit(c, key, 16, iv, 12, NULL);
        if (ccm)
            ok = ok && f.update(c, NULL, &z, 0, NULL, len);
        ok = ok && f.update(c, NULL, &z, 0, aad, sizeof aad) && f.update(c, ct, &n, sizeof ct, pt, len) &&
             f.final(c, ct + n, &z, 0);
        OSSL_PARAM gt[] = {{OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING, tag, taglen, 0},
                           {NULL, 0, NULL, 0, 0}};
        ok = ok && f.get(c, gt);
        PUBLIC(ct, sizeof ct);
        PUBLIC(tag, sizeof tag);
        CHECK_SM4(ok && n == len);
        f.freectx(c);
        /* decrypt: the tag checked in constant time, good, then changed */
        tag[3] ^= (unsigned char)bad;
        OSSL_PARAM st[] = {{OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER, &ivlen, sizeof ivlen, 0},
                           {OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING, tag, taglen, 0},
                           {NULL, 0, NULL, 0, 0}};
        secret_copy(key, key_pub, 16);
        c = f.newctx(&pc);
        ok = f.set(c, st) && f.dinit(c, key, 16, iv, 12, NULL);
        if (ccm)
            ok = ok && f.update(c, NULL, &z, 0, NULL, len);
        ok = ok && f.update(c, NULL, &z, 0, aad, sizeof aad) && f.update(c, out, &n, sizeof out, ct, len) &&
             f.final(c, out + n, &z, 0);
        PUBLIC(&ok, sizeof ok); /* the tag check's answer is public */
        PUBLIC(out, sizeof out);
        CHECK_SM4(bad ? !ok : (ok && memcmp(out, pt_pub, len) == 0));
        f.freectx(c);
    }
}

static void xts_mode(void)
{
    cipher_fns f = fns_of(fs2p_sm4_xts_functions);
    unsigned char key[32], pt[200], ct[200], out[200], iv[16];
    size_t len = 100, n = 0;
    memset(iv, 0x77, 16);
    secret_copy(key, key_pub, 32);
    secret_copy(pt, pt_pub, len);
    void *c = f.newctx(&pc);
    int ok = f.einit(c, key, 32, iv, 16, NULL) && f.update(c, ct, &n, sizeof ct, pt, len);
    PUBLIC(ct, sizeof ct);
    CHECK_SM4(ok && n == len);
    secret_copy(key, key_pub, 32);
    ok = f.dinit(c, key, 32, iv, 16, NULL) && f.update(c, out, &n, sizeof out, ct, len);
    PUBLIC(out, sizeof out);
    CHECK_SM4(ok && memcmp(out, pt_pub, len) == 0);
    f.freectx(c);
}

/* A TLS 1.2 CBC record: explicit IV, payload, MAC (32), padding; the
 * padding and MAC taken off in constant time, the padding good or bad. */
static void tls_cbc(int bad)
{
    cipher_fns f = fns_of(fs2p_sm4_cbc_functions);
    unsigned char key[16], iv[16], rec[16 + 100 + 32 + 16], plain[sizeof rec];
    int version = 0x0303;
    size_t macsize = 32, plen = 100, n = 0, clen = 0, len = 16 + plen + macsize;
    OSSL_PARAM tp[] = {{OSSL_CIPHER_PARAM_TLS_VERSION, OSSL_PARAM_INTEGER, &version, sizeof version, 0},
                       {OSSL_CIPHER_PARAM_TLS_MAC_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, &macsize, sizeof macsize, 0},
                       {NULL, 0, NULL, 0, 0}};
    memset(iv, 0x11, 16);
    memcpy(plain, pt_pub, len);
    secret_copy(key, key_pub, 16);
    memcpy(rec, plain, len);
    SECRET(rec, len); /* the payload and its MAC */
    void *c = f.newctx(&pc);
    int ok = f.einit(c, key, 16, iv, 16, NULL) && f.set(c, tp) && f.update(c, rec, &clen, sizeof rec, rec, len);
    PUBLIC(rec, sizeof rec);
    CHECK_SM4(ok && clen % 16 == 0 && clen > len);
    f.freectx(c);
    if (bad) /* CBC: a bit of the block before flips that bit of the padding's length byte */
        rec[clen - 17] ^= 0x01;
    secret_copy(key, key_pub, 16);
    c = f.newctx(&pc);
    ok = f.dinit(c, key, 16, iv, 16, NULL) && f.set(c, tp) && f.update(c, rec, &n, sizeof rec, rec, clen);
    unsigned char *mac = NULL;
    OSSL_PARAM mp[] = {{OSSL_CIPHER_PARAM_TLS_MAC, OSSL_PARAM_OCTET_PTR, &mac, macsize, 0}, {NULL, 0, NULL, 0, 0}};
    ok = ok && f.get(c, mp);
    /* what libssl does next (the MAC over n bytes, compared) is its own
     * constant-time code; here the results are looked at */
    PUBLIC(&n, sizeof n);
    PUBLIC(rec, sizeof rec);
    if (mac)
        PUBLIC(mac, macsize);
    if (bad) /* no padding taken off, and a MAC that is not the record's bytes */
        CHECK_SM4(ok && n == clen - 16 - macsize && mac && memcmp(mac, rec + clen - macsize, macsize) != 0);
    else
        CHECK_SM4(ok && n == plen && mac && memcmp(mac, plain + 16 + plen, macsize) == 0 &&
                  memcmp(rec + 16, plain + 16, plen) == 0);
    f.freectx(c);
}

/* TLS 1.2 AEAD records: fixed IV, AAD, the record in place. */
static void tls_aead(int ccm)
{
    cipher_fns f = fns_of(ccm ? fs2p_sm4_ccm_functions : fs2p_sm4_gcm_functions);
    unsigned char key[16], fixed[4] = {1, 2, 3, 4}, aad[13], rec[8 + 64 + 16];
    size_t ivlen = 12, taglen = 16, n = 0, plen = 64;
    memset(aad, 0, sizeof aad);
    aad[8] = 23, aad[9] = 3, aad[10] = 3, aad[12] = 8 + 64;
    for (int enc = 1; enc >= 0; enc--) {
        OSSL_PARAM setup[] = {{OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER, &ivlen, sizeof ivlen, 0},
                              {OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING, NULL, taglen, 0},
                              {NULL, 0, NULL, 0, 0}};
        OSSL_PARAM fx[] = {{OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, OSSL_PARAM_OCTET_STRING, fixed, 4, 0},
                           {NULL, 0, NULL, 0, 0}};
        if (!enc)
            aad[12] = 8 + 64 + 16;
        OSSL_PARAM ap[] = {{OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_PARAM_OCTET_STRING, aad, 13, 0},
                           {NULL, 0, NULL, 0, 0}};
        secret_copy(key, key_pub, 16);
        if (enc) {
            memcpy(rec + 8, pt_pub, plen);
            SECRET(rec + 8, plen);
        }
        void *c = f.newctx(&pc);
        int ok = (!ccm || f.set(c, setup)) &&
                 (enc ? f.einit(c, key, 16, NULL, 0, NULL) : f.dinit(c, key, 16, NULL, 0, NULL)) && f.set(c, fx) &&
                 f.set(c, ap) && f.update(c, rec, &n, sizeof rec, rec, sizeof rec);
        PUBLIC(&ok, sizeof ok); /* the tag check's answer is public */
        PUBLIC(rec, sizeof rec);
        CHECK_SM4(ok && n == (enc ? sizeof rec : plen));
        if (!enc)
            CHECK_SM4(memcmp(rec + 8, pt_pub, plen) == 0);
        f.freectx(c);
    }
}

int ctime_sm4(void)
{
    for (size_t i = 0; i < sizeof key_pub; i++)
        key_pub[i] = (unsigned char)(0x2B + 13 * i);
    for (size_t i = 0; i < sizeof pt_pub; i++)
        pt_pub[i] = (unsigned char)(7 * i + 1);
    plain_mode(fs2p_sm4_ecb_functions, 160, 0);
    plain_mode(fs2p_sm4_ecb_functions, 150, 1);
    plain_mode(fs2p_sm4_cbc_functions, 150, 1);
    plain_mode(fs2p_sm4_cbc_functions, 160, 1);
    plain_mode(fs2p_sm4_ctr_functions, 150, 0);
    plain_mode(fs2p_sm4_ofb_functions, 150, 0);
    plain_mode(fs2p_sm4_cfb_functions, 150, 0);
    aead_mode(0);
    aead_mode(1);
    xts_mode();
    tls_cbc(0);
    tls_cbc(1);
    tls_aead(0);
    tls_aead(1);
    printf("SM4 ciphers: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
