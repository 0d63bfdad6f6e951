/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The "openssl" (SM2 and SM3 through EVP) and "openssl-p256" (ECDSA P-256,
 * the yardstick) cases of fastsm2-speed, and the OpenSSL cross-checks that
 * the fastsm2 cases use.
 *
 * What each OpenSSL run costs is what an OpenSSL user pays: message signing
 * re-initialises an EVP_MD_CTX with EVP_DigestSignInit and sets the SM2 ID on
 * every call, as a program signing independent messages must. Objects that a
 * user makes once (the fetched EVP_MD, EVP_PKEY_CTX for EVP_PKEY_sign and
 * EVP_PKEY_encrypt, initialised once and reused) are made outside the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "bench.h"

typedef struct {
    const bench_env *env;
    const bench_case *c;
    EVP_PKEY *key;      /* env->sm2 or env->p256 (borrowed) */
    EVP_PKEY_CTX *pctx; /* keygen / sign / verify / encrypt / decrypt, initialised once */
    EVP_MD_CTX *mctx;   /* message sign / verify */
    EVP_PKEY *gen;      /* the last generated key */
    unsigned char sig[128];
    size_t siglen;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned char *ct;
    size_t ctcap, ctlen;
    unsigned char *pt;
    size_t ptcap, ptlen;
} os_ctx;

static const char *os_err(void)
{
    return "an OpenSSL call failed while preparing";
}

static int is_p256(const bench_case *c)
{
    return strcmp(c->impl, "openssl-p256") == 0;
}

static void os_teardown(void *p)
{
    os_ctx *x = p;
    if (!x)
        return;
    EVP_PKEY_CTX_free(x->pctx);
    EVP_MD_CTX_free(x->mctx);
    EVP_PKEY_free(x->gen);
    free(x->ct);
    free(x->pt);
    free(x);
}

static os_ctx *os_new(const bench_env *env, const bench_case *c)
{
    os_ctx *x = calloc(1, sizeof(*x));
    if (!x)
        return NULL;
    x->env = env;
    x->c = c;
    x->key = is_p256(c) ? env->p256 : env->sm2;
    return x;
}

static void *os_setup(const bench_env *env, const bench_case *c)
{
    return os_new(env, c);
}

/* ---- runs: one call each ------------------------------------------------ */

static int os_run_keygen(void *p)
{
    os_ctx *x = p;
    EVP_PKEY_free(x->gen);
    x->gen = NULL;
    return EVP_PKEY_keygen(x->pctx, &x->gen) > 0;
}

static int os_run_sign_msg(void *p)
{
    os_ctx *x = p;
    EVP_PKEY_CTX *pc = NULL;
    if (!EVP_MD_CTX_reset(x->mctx) || EVP_DigestSignInit(x->mctx, &pc, x->env->sm3, NULL, x->key) <= 0 ||
        EVP_PKEY_CTX_set1_id(pc, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN) <= 0)
        return 0;
    x->siglen = sizeof(x->sig);
    return EVP_DigestSign(x->mctx, x->sig, &x->siglen, x->env->msg, sizeof(x->env->msg)) > 0;
}

static int os_run_verify_msg(void *p)
{
    os_ctx *x = p;
    EVP_PKEY_CTX *pc = NULL;
    if (!EVP_MD_CTX_reset(x->mctx) || EVP_DigestVerifyInit(x->mctx, &pc, x->env->sm3, NULL, x->key) <= 0 ||
        EVP_PKEY_CTX_set1_id(pc, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN) <= 0)
        return 0;
    return EVP_DigestVerify(x->mctx, x->sig, x->siglen, x->env->msg, sizeof(x->env->msg)) == 1;
}

static int os_run_sign_digest(void *p)
{
    os_ctx *x = p;
    x->siglen = sizeof(x->sig);
    return EVP_PKEY_sign(x->pctx, x->sig, &x->siglen, x->env->e, sizeof(x->env->e)) > 0;
}

static int os_run_verify_digest(void *p)
{
    os_ctx *x = p;
    return EVP_PKEY_verify(x->pctx, x->sig, x->siglen, x->env->e, sizeof(x->env->e)) == 1;
}

static int os_run_encrypt(void *p)
{
    os_ctx *x = p;
    x->ctlen = x->ctcap;
    return EVP_PKEY_encrypt(x->pctx, x->ct, &x->ctlen, x->env->data, x->c->param) > 0;
}

static int os_run_decrypt(void *p)
{
    os_ctx *x = p;
    x->ptlen = x->ptcap;
    return EVP_PKEY_decrypt(x->pctx, x->pt, &x->ptlen, x->ct, x->ctlen) > 0;
}

static int os_run_sm3(void *p)
{
    os_ctx *x = p;
    unsigned int len = 0;
    return EVP_Digest(x->env->data, x->c->param, x->digest, &len, x->env->sm3, NULL) == 1 && len == 32;
}

/* ---- set-ups -------------------------------------------------------------- */

static void *os_setup_keygen(const bench_env *env, const bench_case *c)
{
    os_ctx *x = os_new(env, c);
    if (!x)
        return NULL;
    x->pctx = EVP_PKEY_CTX_new_from_name(NULL, is_p256(c) ? "EC" : "SM2", NULL);
    if (!x->pctx || EVP_PKEY_keygen_init(x->pctx) <= 0 ||
        (is_p256(c) && EVP_PKEY_CTX_set_group_name(x->pctx, "P-256") <= 0)) {
        bench_fail(c->impl, c->op, os_err());
        os_teardown(x);
        return NULL;
    }
    return x;
}

static void *os_setup_sign_msg(const bench_env *env, const bench_case *c)
{
    os_ctx *x = os_new(env, c);
    if (!x)
        return NULL;
    x->mctx = EVP_MD_CTX_new();
    if (!x->mctx) {
        os_teardown(x);
        return NULL;
    }
    return x;
}

static void *os_setup_verify_msg(const bench_env *env, const bench_case *c)
{
    os_ctx *x = os_setup_sign_msg(env, c);
    if (x && !os_run_sign_msg(x)) {
        bench_fail(c->impl, c->op, os_err());
        os_teardown(x);
        return NULL;
    }
    return x;
}

static void *os_setup_sign_digest(const bench_env *env, const bench_case *c)
{
    os_ctx *x = os_new(env, c);
    if (!x)
        return NULL;
    x->pctx = EVP_PKEY_CTX_new_from_pkey(NULL, x->key, NULL);
    if (!x->pctx || EVP_PKEY_sign_init(x->pctx) <= 0) {
        bench_fail(c->impl, c->op, os_err());
        os_teardown(x);
        return NULL;
    }
    return x;
}

static void *os_setup_verify_digest(const bench_env *env, const bench_case *c)
{
    os_ctx *x = os_setup_sign_digest(env, c);
    if (!x)
        return NULL;
    /* Sign once with the signing context, then turn it into a verifying one. */
    if (!os_run_sign_digest(x) || EVP_PKEY_verify_init(x->pctx) <= 0) {
        bench_fail(c->impl, c->op, os_err());
        os_teardown(x);
        return NULL;
    }
    return x;
}

static void *os_setup_encrypt(const bench_env *env, const bench_case *c)
{
    os_ctx *x = os_new(env, c);
    if (!x)
        return NULL;
    x->pctx = EVP_PKEY_CTX_new_from_pkey(NULL, x->key, NULL);
    if (!x->pctx || EVP_PKEY_encrypt_init(x->pctx) <= 0 ||
        EVP_PKEY_encrypt(x->pctx, NULL, &x->ctcap, env->data, c->param) <= 0)
        goto fail;
    x->ptcap = c->param + 1;
    x->ct = calloc(1, x->ctcap);
    x->pt = calloc(1, x->ptcap);
    if (!x->ct || !x->pt)
        goto fail;
    return x;
fail:
    bench_fail(c->impl, c->op, os_err());
    os_teardown(x);
    return NULL;
}

static void *os_setup_decrypt(const bench_env *env, const bench_case *c)
{
    os_ctx *x = os_setup_encrypt(env, c);
    if (!x)
        return NULL;
    if (!os_run_encrypt(x) || EVP_PKEY_decrypt_init(x->pctx) <= 0) {
        bench_fail(c->impl, c->op, os_err());
        os_teardown(x);
        return NULL;
    }
    return x;
}

/* ---- checks: OpenSSL's output must be right for fastsm2 too -------------- */

static int os_check_sm2_keygen(void *p)
{
    os_ctx *x = p;
    const char *op = x->c->op;
    unsigned char pub[65], d[32], mine[65];
    size_t publen = 0, minelen = sizeof(mine);
    BIGNUM *bn = NULL;
    fastsm2_pubkey fpub, fpub2;
    fastsm2_privkey fkey;
    int ok;

    if (!x->gen || !EVP_PKEY_is_a(x->gen, "SM2"))
        return bench_fail(x->c->impl, op, "EVP_PKEY_keygen made no SM2 key");
    if (!EVP_PKEY_get_octet_string_param(x->gen, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub), &publen) ||
        !EVP_PKEY_get_bn_param(x->gen, OSSL_PKEY_PARAM_PRIV_KEY, &bn) || BN_bn2binpad(bn, d, 32) != 32) {
        BN_free(bn);
        return bench_fail(x->c->impl, op, "cannot read the generated key");
    }
    BN_clear_free(bn);
    if (fastsm2_pubkey_from_bytes(&fpub, pub, publen) != FASTSM2_OK)
        return bench_fail(x->c->impl, op, "fastsm2 rejects OpenSSL's public key");
    /* fastsm2 must load OpenSSL's d (drawn from [1, n-2]) and derive the
     * same P = dG. */
    if (fastsm2_privkey_from_bytes(&fkey, d) != FASTSM2_OK)
        return bench_fail(x->c->impl, op, "fastsm2 rejects OpenSSL's private key");
    ok = fastsm2_privkey_pubkey(&fpub2, &fkey) == FASTSM2_OK &&
         fastsm2_pubkey_to_bytes(mine, &minelen, &fpub2, 0) == FASTSM2_OK && publen == 65 && minelen == 65 &&
         memcmp(mine, pub, 65) == 0;
    fastsm2_privkey_clear(&fkey);
    memset(d, 0, sizeof(d));
    return ok ? 1 : bench_fail(x->c->impl, op, "fastsm2's dG differs from OpenSSL's public key");
}

static int os_check_p256_keygen(void *p)
{
    os_ctx *x = p;
    if (!x->gen || !EVP_PKEY_is_a(x->gen, "EC") || EVP_PKEY_get_bits(x->gen) != 256)
        return bench_fail(x->c->impl, x->c->op, "EVP_PKEY_keygen made no P-256 key");
    return 1;
}

/* x->sig holds OpenSSL's DER signature on env->msg (and so on env->e). */
static int os_check_sm2_sig(os_ctx *x)
{
    const char *impl = x->c->impl, *op = x->c->op;
    unsigned char raw[64], msg[32];

    if (fastsm2_sig_from_der(raw, x->sig, x->siglen) != FASTSM2_OK)
        return bench_fail(impl, op, "fastsm2 cannot parse OpenSSL's DER signature");
    if (fastsm2_verify(&x->env->pub, NULL, 0, x->env->msg, sizeof(msg), raw) != 1)
        return bench_fail(impl, op, "fastsm2_verify rejects OpenSSL's signature");
    if (fastsm2_verify_digest(&x->env->pub, x->env->e, raw) != 1)
        return bench_fail(impl, op, "fastsm2_verify_digest rejects OpenSSL's signature");
    if (!bench_ossl_sm2_verify_msg(x->env, x->env->msg, sizeof(msg), x->sig, x->siglen))
        return bench_fail(impl, op, "OpenSSL rejects its own signature");
    memcpy(msg, x->env->msg, sizeof(msg));
    msg[0] ^= 1;
    if (bench_ossl_sm2_verify_msg(x->env, msg, sizeof(msg), x->sig, x->siglen))
        return bench_fail(impl, op, "OpenSSL accepts the signature on another message");
    return 1;
}

static int os_check_sm2_sign(void *p)
{
    return os_check_sm2_sig(p);
}

static int os_check_p256_sig(void *p)
{
    os_ctx *x = p;
    unsigned char e[32];
    EVP_PKEY_CTX *v = EVP_PKEY_CTX_new_from_pkey(NULL, x->env->p256, NULL);
    int ok = v && EVP_PKEY_verify_init(v) > 0 && EVP_PKEY_verify(v, x->sig, x->siglen, x->env->e, sizeof(e)) == 1;
    memcpy(e, x->env->e, sizeof(e));
    e[0] ^= 1;
    int bad = v && EVP_PKEY_verify(v, x->sig, x->siglen, e, sizeof(e)) == 1;
    EVP_PKEY_CTX_free(v);
    if (!ok)
        return bench_fail(x->c->impl, x->c->op, "the P-256 signature does not verify");
    if (bad)
        return bench_fail(x->c->impl, x->c->op, "the P-256 signature verifies on another digest");
    return 1;
}

static int os_check_encrypt(void *p)
{
    os_ctx *x = p;
    const char *impl = x->c->impl, *op = x->c->op;
    size_t n = x->c->param;
    unsigned char *pt = calloc(1, n + 1);
    size_t ptlen = n + 1;
    int ok;

    if (!pt)
        return bench_fail(impl, op, "out of memory");
    ok = fastsm2_decrypt(pt, &ptlen, &x->env->key, x->ct, x->ctlen, FASTSM2_CT_DER) == FASTSM2_OK && ptlen == n &&
         memcmp(pt, x->env->data, n) == 0;
    if (ok) {
        ptlen = n + 1;
        ok = bench_ossl_sm2_decrypt(x->env, pt, &ptlen, x->ct, x->ctlen) && ptlen == n &&
             memcmp(pt, x->env->data, n) == 0;
        free(pt);
        return ok ? 1 : bench_fail(impl, op, "OpenSSL does not decrypt its ciphertext to the plaintext");
    }
    free(pt);
    return bench_fail(impl, op, "fastsm2_decrypt does not decrypt OpenSSL's ciphertext to the plaintext");
}

static int os_check_decrypt(void *p)
{
    os_ctx *x = p;
    if (x->ptlen != x->c->param || memcmp(x->pt, x->env->data, x->c->param) != 0)
        return bench_fail(x->c->impl, x->c->op, "decrypt does not return the plaintext");
    return os_check_encrypt(p);
}

static int os_check_sm3(void *p)
{
    os_ctx *x = p;
    unsigned char d[32];
    fastsm2_sm3(d, x->env->data, x->c->param);
    if (memcmp(d, x->digest, 32) != 0)
        return bench_fail(x->c->impl, x->c->op, "OpenSSL's SM3 differs from fastsm2's");
    return 1;
}

/* ---- cross-checks for the fastsm2 cases ------------------------------------ */

int bench_ossl_sm2_verify_msg(const bench_env *env, const unsigned char *msg, size_t msglen, const unsigned char *der,
                              size_t derlen)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    int ok = m && EVP_DigestVerifyInit(m, &pc, env->sm3, NULL, env->sm2) > 0 &&
             EVP_PKEY_CTX_set1_id(pc, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN) > 0 &&
             EVP_DigestVerify(m, der, derlen, msg, msglen) == 1;
    EVP_MD_CTX_free(m);
    return ok;
}

int bench_ossl_sm2_verify_digest(const bench_env *env, const unsigned char e[32], const unsigned char *der,
                                 size_t derlen)
{
    EVP_PKEY_CTX *v = EVP_PKEY_CTX_new_from_pkey(NULL, env->sm2, NULL);
    int ok = v && EVP_PKEY_verify_init(v) > 0 && EVP_PKEY_verify(v, der, derlen, e, 32) == 1;
    EVP_PKEY_CTX_free(v);
    return ok;
}

int bench_ossl_sm2_decrypt(const bench_env *env, unsigned char *out, size_t *outlen, const unsigned char *ct,
                           size_t ctlen)
{
    EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(NULL, env->sm2, NULL);
    int ok = d && EVP_PKEY_decrypt_init(d) > 0 && EVP_PKEY_decrypt(d, out, outlen, ct, ctlen) > 0;
    EVP_PKEY_CTX_free(d);
    return ok;
}

/* ---- the table -------------------------------------------------------------- */

#define OS_CASE(op, param, mbps, setup, run, check)                         \
    {                                                                       \
        "openssl", op, param, mbps, setup, run, check, os_teardown, NULL, 0 \
    }
#define P256_CASE(op, setup, run, check)                                  \
    {                                                                     \
        "openssl-p256", op, 0, 0, setup, run, check, os_teardown, NULL, 0 \
    }

const bench_case bench_openssl_cases[] = {
    OS_CASE("keygen", 0, 0, os_setup_keygen, os_run_keygen, os_check_sm2_keygen),
    OS_CASE("sign", 0, 0, os_setup_sign_msg, os_run_sign_msg, os_check_sm2_sign),
    OS_CASE("verify", 0, 0, os_setup_verify_msg, os_run_verify_msg, os_check_sm2_sign),
    OS_CASE("sign-digest", 0, 0, os_setup_sign_digest, os_run_sign_digest, os_check_sm2_sign),
    OS_CASE("verify-digest", 0, 0, os_setup_verify_digest, os_run_verify_digest, os_check_sm2_sign),
    OS_CASE("encrypt-32", 32, 0, os_setup_encrypt, os_run_encrypt, os_check_encrypt),
    OS_CASE("decrypt-32", 32, 0, os_setup_decrypt, os_run_decrypt, os_check_decrypt),
    OS_CASE("encrypt-4096", 4096, 0, os_setup_encrypt, os_run_encrypt, os_check_encrypt),
    OS_CASE("decrypt-4096", 4096, 0, os_setup_decrypt, os_run_decrypt, os_check_decrypt),
    OS_CASE("sm3-64", 64, 1, os_setup, os_run_sm3, os_check_sm3),
    OS_CASE("sm3-1024", 1024, 1, os_setup, os_run_sm3, os_check_sm3),
    OS_CASE("sm3-8192", 8192, 1, os_setup, os_run_sm3, os_check_sm3),
    /* The yardstick: ECDSA P-256 on a 32-byte digest. */
    P256_CASE("keygen", os_setup_keygen, os_run_keygen, os_check_p256_keygen),
    P256_CASE("sign", os_setup_sign_digest, os_run_sign_digest, os_check_p256_sig),
    P256_CASE("verify", os_setup_verify_digest, os_run_verify_digest, os_check_p256_sig),
    {NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, 0},
};
