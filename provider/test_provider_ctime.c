/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider's own handling of private keys under valgrind memcheck, as
 * tests/ctime does for the library: the "priv" parameter's bytes are marked
 * undefined before the key management sees them, and memcheck reports any
 * branch, address or variable-time instruction that depends on them on the
 * way through import, export, get_params, signing and decryption (the
 * dispatch functions called directly, with the provider's sources linked
 * in). Outside valgrind it is a plain functional test.
 */
#include <stdio.h>
#include <string.h>

#include "ctime.h" /* tests/ctime: SECRET, PUBLIC, CT_CHECK */
#include "prov.h"

int ctime_sm4(void);

static void (*fn(const OSSL_DISPATCH *t, int id))(void)
{
    for (; t->function_id != 0; t++)
        if (t->function_id == id)
            return t->function;
    fprintf(stderr, "no function %d\n", id);
    return NULL;
}

static unsigned char exported[32];
static int export_cb(const OSSL_PARAM params[], void *arg)
{
    (void)arg;
    const OSSL_PARAM *p = fs2p_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
    if (p == NULL || p->data_size != 32)
        return 0;
    memcpy(exported, p->data, 32);
    return 1;
}

/* d as OpenSSL passes a BIGNUM: native order, `len` bytes (zero above 32). */
static void native(unsigned char *out, size_t len, const unsigned char d[32])
{
    fs2p_scalar_to_native(out, len, d);
}

int main(void)
{
    static fs2p_provctx pc; /* no core: errors go nowhere */
    OSSL_FUNC_keymgmt_new_fn *km_new = (OSSL_FUNC_keymgmt_new_fn *)fn(fs2p_keymgmt_functions, OSSL_FUNC_KEYMGMT_NEW);
    OSSL_FUNC_keymgmt_free_fn *km_free =
        (OSSL_FUNC_keymgmt_free_fn *)fn(fs2p_keymgmt_functions, OSSL_FUNC_KEYMGMT_FREE);
    OSSL_FUNC_keymgmt_import_fn *km_import =
        (OSSL_FUNC_keymgmt_import_fn *)fn(fs2p_keymgmt_functions, OSSL_FUNC_KEYMGMT_IMPORT);
    OSSL_FUNC_keymgmt_export_fn *km_export =
        (OSSL_FUNC_keymgmt_export_fn *)fn(fs2p_keymgmt_functions, OSSL_FUNC_KEYMGMT_EXPORT);
    OSSL_FUNC_keymgmt_get_params_fn *km_get =
        (OSSL_FUNC_keymgmt_get_params_fn *)fn(fs2p_keymgmt_functions, OSSL_FUNC_KEYMGMT_GET_PARAMS);

    unsigned char d[32];
    for (int i = 0; i < 32; i++)
        d[i] = (unsigned char)(0x39 + 7 * i);
    for (size_t len = 32; len <= 40; len += 8) { /* padded, and with zero bytes above */
        unsigned char dn[40];
        native(dn, len, d);
        SECRET(dn, len);
        OSSL_PARAM imp[] = {{OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PARAM_UTF8_STRING, "SM2", 3, 0},
                            {OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_UNSIGNED_INTEGER, dn, len, 0},
                            {NULL, 0, NULL, 0, 0}};
        void *k = km_new(&pc);
        int ok = km_import(k, OSSL_KEYMGMT_SELECT_KEYPAIR, imp);
        PUBLIC(&ok, sizeof ok);
        CT_CHECK(ok == 1);

        /* export and get_params write d back; the test looks at it after */
        CT_CHECK(km_export(k, OSSL_KEYMGMT_SELECT_KEYPAIR, export_cb, NULL) == 1);
        unsigned char got[32], back[48];
        PUBLIC(exported, 32);
        fs2p_scalar_from_native(got, exported, 32);
        CT_CHECK(memcmp(got, d, 32) == 0);
        OSSL_PARAM q[] = {{OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_UNSIGNED_INTEGER, back, sizeof back, 0},
                          {NULL, 0, NULL, 0, 0}};
        CT_CHECK(km_get(k, q) == 1);
        PUBLIC(back, sizeof back);
        fs2p_scalar_from_native(got, back, sizeof back);
        CT_CHECK(q[0].return_size == 32 && memcmp(got, d, 32) == 0);

        /* sign a digest and decrypt through the provider's functions */
        OSSL_FUNC_signature_newctx_fn *sn =
            (OSSL_FUNC_signature_newctx_fn *)fn(fs2p_signature_functions, OSSL_FUNC_SIGNATURE_NEWCTX);
        OSSL_FUNC_signature_sign_init_fn *si =
            (OSSL_FUNC_signature_sign_init_fn *)fn(fs2p_signature_functions, OSSL_FUNC_SIGNATURE_SIGN_INIT);
        OSSL_FUNC_signature_sign_fn *ss =
            (OSSL_FUNC_signature_sign_fn *)fn(fs2p_signature_functions, OSSL_FUNC_SIGNATURE_SIGN);
        OSSL_FUNC_signature_freectx_fn *sf =
            (OSSL_FUNC_signature_freectx_fn *)fn(fs2p_signature_functions, OSSL_FUNC_SIGNATURE_FREECTX);
        void *sc = sn(&pc, NULL);
        unsigned char e[32], sig[80];
        size_t siglen = 0;
        memset(e, 0x5A, 32);
        CT_CHECK(si(sc, k, NULL) == 1);
        ok = ss(sc, sig, &siglen, sizeof sig, e, 32);
        PUBLIC(&ok, sizeof ok);
        CT_CHECK(ok == 1 && siglen >= 8);
        sf(sc);

        OSSL_FUNC_asym_cipher_newctx_fn *cn =
            (OSSL_FUNC_asym_cipher_newctx_fn *)fn(fs2p_asym_cipher_functions, OSSL_FUNC_ASYM_CIPHER_NEWCTX);
        OSSL_FUNC_asym_cipher_encrypt_init_fn *ei =
            (OSSL_FUNC_asym_cipher_encrypt_init_fn *)fn(fs2p_asym_cipher_functions, OSSL_FUNC_ASYM_CIPHER_ENCRYPT_INIT);
        OSSL_FUNC_asym_cipher_encrypt_fn *ee =
            (OSSL_FUNC_asym_cipher_encrypt_fn *)fn(fs2p_asym_cipher_functions, OSSL_FUNC_ASYM_CIPHER_ENCRYPT);
        OSSL_FUNC_asym_cipher_decrypt_init_fn *di =
            (OSSL_FUNC_asym_cipher_decrypt_init_fn *)fn(fs2p_asym_cipher_functions, OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT);
        OSSL_FUNC_asym_cipher_decrypt_fn *dd =
            (OSSL_FUNC_asym_cipher_decrypt_fn *)fn(fs2p_asym_cipher_functions, OSSL_FUNC_ASYM_CIPHER_DECRYPT);
        OSSL_FUNC_asym_cipher_freectx_fn *cf =
            (OSSL_FUNC_asym_cipher_freectx_fn *)fn(fs2p_asym_cipher_functions, OSSL_FUNC_ASYM_CIPHER_FREECTX);
        void *cc = cn(&pc);
        unsigned char msg[40], ct[200], out[200];
        size_t ctlen = 0, outlen = 0;
        memset(msg, 0xA5, sizeof msg);
        CT_CHECK(ei(cc, k, NULL) == 1 && ee(cc, ct, &ctlen, sizeof ct, msg, sizeof msg) == 1);
        CT_CHECK(di(cc, k, NULL) == 1);
        ok = dd(cc, out, &outlen, sizeof out, ct, ctlen);
        PUBLIC(&ok, sizeof ok);
        PUBLIC(out, sizeof out);
        PUBLIC(&outlen, sizeof outlen);
        CT_CHECK(ok == 1 && outlen == sizeof msg && memcmp(out, msg, sizeof msg) == 0);
        cf(cc);
        km_free(k);
    }

    /* a number of 2^256 or more: refused, with no branch on its bytes */
    unsigned char big[40];
    memset(big, 0, sizeof big);
    big[35] = 1;
    SECRET(big, sizeof big);
    OSSL_PARAM imp[] = {{OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PARAM_UNSIGNED_INTEGER, big, sizeof big, 0},
                        {NULL, 0, NULL, 0, 0}};
    void *k = km_new(&pc);
    int ok = km_import(k, OSSL_KEYMGMT_SELECT_KEYPAIR, imp);
    PUBLIC(&ok, sizeof ok);
    CT_CHECK(ok == 0);
    km_free(k);

    /* the SM4 ciphers (test_provider_ctime_sm4.c) */
    CT_CHECK(ctime_sm4() == 0);
    return ct_finish("test_provider_ctime");
}
