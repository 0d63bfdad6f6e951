/* SPDX-License-Identifier: Apache-2.0 */
#include "provtest.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/provider.h>

OSSL_LIB_CTX *lc_ours, *lc_ref;
static OSSL_PROVIDER *p_ours, *p_ours_default, *p_ref;

void pt_die(const char *what)
{
    fprintf(stderr, "OpenSSL failure: %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(2);
}

void pt_setup(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODULE_DIR\n", argv[0]);
        exit(2);
    }
    lc_ours = OSSL_LIB_CTX_new();
    lc_ref = OSSL_LIB_CTX_new();
    if (!lc_ours || !lc_ref || !OSSL_PROVIDER_set_default_search_path(lc_ours, argv[1]))
        pt_die("library contexts");
    p_ours = OSSL_PROVIDER_load(lc_ours, "fastsm2prov");
    p_ours_default = OSSL_PROVIDER_load(lc_ours, "default");
    p_ref = OSSL_PROVIDER_load(lc_ref, "default");
    if (!p_ours || !p_ours_default || !p_ref)
        pt_die("load the providers");
}

void pt_teardown(void)
{
    OSSL_PROVIDER_unload(p_ours);
    OSSL_PROVIDER_unload(p_ours_default);
    OSSL_PROVIDER_unload(p_ref);
    OSSL_LIB_CTX_free(lc_ours);
    OSSL_LIB_CTX_free(lc_ref);
}

int pt_runs_in(const EVP_PKEY_CTX *pc, const char *name)
{
    const OSSL_PROVIDER *p = pc ? EVP_PKEY_CTX_get0_provider(pc) : NULL;
    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), name) == 0;
}

static const char *prov_of(const char *pq)
{
    return strcmp(pq, PQ_OURS) == 0 ? "fastsm2prov" : "default";
}

EVP_PKEY *pt_keygen(OSSL_LIB_CTX *lc, const char *pq)
{
    EVP_PKEY *pk = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc, "SM2", pq);
    if (!c || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_keygen(c, &pk) <= 0)
        pt_die("SM2 keygen");
    EVP_PKEY_CTX_free(c);
    return pk;
}

static EVP_MD_CTX *sig_ctx(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, int sign)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    OSSL_PARAM params[2] = {OSSL_PARAM_END, OSSL_PARAM_END};
    if (id != NULL)
        params[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_DIST_ID, (void *)(uintptr_t)id, idlen);
    int ok = m != NULL && (sign ? EVP_DigestSignInit_ex(m, &pc, "SM3", lc, pq, pk, params)
                                : EVP_DigestVerifyInit_ex(m, &pc, "SM3", lc, pq, pk, params)) > 0;
    /* the algorithm must run where it was asked to */
    if (ok && !pt_runs_in(pc, prov_of(pq))) {
        fprintf(stderr, "signature ran in the wrong provider\n");
        exit(2);
    }
    if (!ok) {
        EVP_MD_CTX_free(m);
        return NULL;
    }
    return m;
}

int pt_sign(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
            size_t msglen, unsigned char *sig, size_t *siglen)
{
    EVP_MD_CTX *m = sig_ctx(lc, pq, pk, id, idlen, 1);
    int ok = m != NULL && EVP_DigestSign(m, sig, siglen, msg, msglen) > 0;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return ok;
}

int pt_verify(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
              size_t msglen, const unsigned char *sig, size_t siglen)
{
    EVP_MD_CTX *m = sig_ctx(lc, pq, pk, id, idlen, 0);
    int ok = m != NULL && EVP_DigestVerify(m, sig, siglen, msg, msglen) == 1;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return ok;
}

unsigned char *pt_crypt(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, int enc, const unsigned char *in, size_t inlen,
                        size_t *outlen)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lc, pk, pq);
    unsigned char *out = NULL;
    size_t n = 0;
    int ok = c != NULL && (enc ? EVP_PKEY_encrypt_init(c) : EVP_PKEY_decrypt_init(c)) > 0;
    if (ok && !pt_runs_in(c, prov_of(pq))) {
        fprintf(stderr, "encryption ran in the wrong provider\n");
        exit(2);
    }
    if (ok)
        ok = (enc ? EVP_PKEY_encrypt(c, NULL, &n, in, inlen) : EVP_PKEY_decrypt(c, NULL, &n, in, inlen)) > 0;
    if (ok) {
        out = malloc(n ? n : 1);
        ok = (enc ? EVP_PKEY_encrypt(c, out, &n, in, inlen) : EVP_PKEY_decrypt(c, out, &n, in, inlen)) > 0;
    }
    EVP_PKEY_CTX_free(c);
    if (!ok) {
        free(out);
        return NULL;
    }
    *outlen = n;
    return out;
}

int pt_pub_bytes(EVP_PKEY *pk, unsigned char out[65])
{
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, 65, &len) != 1)
        return 0;
    return len == 65 && out[0] == 0x04;
}

int pt_priv_bytes(EVP_PKEY *pk, unsigned char out[32])
{
    BIGNUM *bn = NULL;
    if (EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &bn) != 1)
        return 0;
    int ok = BN_bn2binpad(bn, out, 32) == 32;
    BN_clear_free(bn);
    return ok;
}

int pt_last_status(void)
{
    unsigned long e;
    int st = 0;
    while ((e = ERR_get_error_all(NULL, NULL, NULL, NULL, NULL)) != 0) {
        const char *lib = ERR_lib_error_string(e);
        if (lib != NULL && strcmp(lib, "fastsm2prov") == 0)
            st = -(int)ERR_GET_REASON(e);
    }
    return st;
}
