/* SPDX-License-Identifier: Apache-2.0 */
/* The "fastsm2" cases of fastsm2-speed: the public API, single thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define IMPL     "fastsm2"
/* Items per call of the batch rows (fastsm2_sign_digest_batch and
 * fastsm2_verify_digest_batch on one thread); their ops/s count items. */
#define FS_BATCH 64

typedef struct {
    const bench_env *env;
    const bench_case *c;
    fastsm2_privkey gen; /* keygen output */
    unsigned char sig[FASTSM2_SIG_RAW_SIZE];
    unsigned char digest[FASTSM2_SM3_DIGEST_SIZE];
    unsigned char *ct;
    size_t ctcap, ctlen;
    unsigned char *pt;
    size_t ptcap, ptlen;
    /* kx: the peer (responder) and its R, made once; this side's context */
    fastsm2_privkey peer;
    fastsm2_pubkey peer_pub;
    unsigned char ra[65], rb[65], ka[16];
    fastsm2_kx_ctx kx;
    /* the batch rows: FS_BATCH digests (all e), signatures, results */
    unsigned char be[FS_BATCH * 32], bsig[FS_BATCH * 64];
    int bres[FS_BATCH];
} fs_ctx;

/* The responder's fixed nonce (any value in [1, n-1]): its R is made in
 * set-up and again in the check. */
static const unsigned char fs_kx_nonce[32] = {
    0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
    0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
};

static void fs_teardown(void *p)
{
    fs_ctx *x = p;
    if (!x)
        return;
    fastsm2_privkey_clear(&x->gen);
    fastsm2_privkey_clear(&x->peer);
    fastsm2_kx_clear(&x->kx);
    free(x->ct);
    free(x->pt);
    free(x);
}

static void *fs_setup(const bench_env *env, const bench_case *c)
{
    fs_ctx *x = calloc(1, sizeof(*x));
    if (!x)
        return NULL;
    x->env = env;
    x->c = c;
    x->ctcap = fastsm2_ciphertext_size(c->param, FASTSM2_CT_DER);
    x->ptcap = c->param + 1;
    x->ct = calloc(1, x->ctcap + 1);
    x->pt = calloc(1, x->ptcap);
    if (!x->ct || !x->pt) {
        fs_teardown(x);
        return NULL;
    }
    return x;
}

/* ---- runs: one call each ------------------------------------------------ */

static int fs_run_keygen(void *p)
{
    fs_ctx *x = p;
    return fastsm2_privkey_generate(&x->gen) == FASTSM2_OK;
}

/* A new key and its first signature of a digest: what a one-time key
 * costs (GmSSL's keygen + sm2_sign row beside it). */
static int fs_run_keygen_sign(void *p)
{
    fs_ctx *x = p;
    return fastsm2_privkey_generate(&x->gen) == FASTSM2_OK &&
           fastsm2_sign_digest(x->sig, &x->gen, x->env->e) == FASTSM2_OK;
}

static int fs_run_sign(void *p)
{
    fs_ctx *x = p;
    return fastsm2_sign(x->sig, &x->env->key, NULL, 0, x->env->msg, sizeof(x->env->msg)) == FASTSM2_OK;
}

static int fs_run_verify(void *p)
{
    fs_ctx *x = p;
    return fastsm2_verify(&x->env->pub, NULL, 0, x->env->msg, sizeof(x->env->msg), x->sig) == 1;
}

static int fs_run_sign_digest(void *p)
{
    fs_ctx *x = p;
    return fastsm2_sign_digest(x->sig, &x->env->key, x->env->e) == FASTSM2_OK;
}

static int fs_run_verify_digest(void *p)
{
    fs_ctx *x = p;
    return fastsm2_verify_digest(&x->env->pub, x->env->e, x->sig) == 1;
}

static int fs_run_sign_batch(void *p)
{
    fs_ctx *x = p;
    return fastsm2_sign_digest_batch(x->bsig, &x->env->key, 1, x->be, FS_BATCH, 1) == FASTSM2_OK;
}

static int fs_run_verify_batch(void *p)
{
    fs_ctx *x = p;
    return fastsm2_verify_digest_batch(x->bres, &x->env->pub, 1, x->be, x->bsig, FS_BATCH, 1) == FASTSM2_OK;
}

static int fs_run_encrypt(void *p)
{
    fs_ctx *x = p;
    x->ctlen = x->ctcap;
    return fastsm2_encrypt(x->ct, &x->ctlen, &x->env->pub, x->env->data, x->c->param, FASTSM2_CT_DER) == FASTSM2_OK;
}

static int fs_run_decrypt(void *p)
{
    fs_ctx *x = p;
    x->ptlen = x->ptcap;
    return fastsm2_decrypt(x->pt, &x->ptlen, &x->env->key, x->ct, x->ctlen, FASTSM2_CT_DER) == FASTSM2_OK;
}

/* One side's whole key exchange (the initiator): init (Z_A, Z_B), R_A,
 * then U and a 16-byte key from the peer's R_B. */
static int fs_run_kx(void *p)
{
    fs_ctx *x = p;
    return fastsm2_kx_init(&x->kx, FASTSM2_KX_INITIATOR, &x->env->key, NULL, 0, &x->peer_pub, NULL, 0) == FASTSM2_OK &&
           fastsm2_kx_start(&x->kx, x->ra) == FASTSM2_OK &&
           fastsm2_kx_compute(&x->kx, x->ka, sizeof(x->ka), x->rb, sizeof(x->rb)) == FASTSM2_OK;
}

static int fs_run_sm3(void *p)
{
    fs_ctx *x = p;
    fastsm2_sm3(x->digest, x->env->data, x->c->param);
    return 1;
}

/* ---- set-ups that need an input made first ------------------------------ */

static void *fs_setup_verify(const bench_env *env, const bench_case *c)
{
    fs_ctx *x = fs_setup(env, c);
    if (x && !fs_run_sign(x)) {
        bench_fail(IMPL, c->op, "fastsm2_sign failed while preparing");
        fs_teardown(x);
        return NULL;
    }
    return x;
}

static void *fs_setup_verify_digest(const bench_env *env, const bench_case *c)
{
    fs_ctx *x = fs_setup(env, c);
    if (x && !fs_run_sign_digest(x)) {
        bench_fail(IMPL, c->op, "fastsm2_sign_digest failed while preparing");
        fs_teardown(x);
        return NULL;
    }
    return x;
}

static void *fs_setup_batch(const bench_env *env, const bench_case *c)
{
    fs_ctx *x = fs_setup(env, c);
    if (!x)
        return NULL;
    for (size_t i = 0; i < FS_BATCH; i++)
        memcpy(x->be + 32 * i, env->e, 32);
    if (!fs_run_sign_batch(x)) {
        fs_teardown(x);
        return NULL;
    }
    return x;
}

static void *fs_setup_decrypt(const bench_env *env, const bench_case *c)
{
    fs_ctx *x = fs_setup(env, c);
    if (x && !fs_run_encrypt(x)) {
        bench_fail(IMPL, c->op, "fastsm2_encrypt failed while preparing");
        fs_teardown(x);
        return NULL;
    }
    return x;
}

/* The responder: its own key, and R_B = [fs_kx_nonce] G sent to us. */
static int fs_kx_responder(fs_ctx *x, fastsm2_kx_ctx *b, unsigned char rb[65])
{
    return fastsm2_kx_init(b, FASTSM2_KX_RESPONDER, &x->peer, NULL, 0, &x->env->pub, NULL, 0) == FASTSM2_OK &&
           fastsm2_kx_start_with_nonce(b, rb, fs_kx_nonce) == FASTSM2_OK;
}

static void *fs_setup_kx(const bench_env *env, const bench_case *c)
{
    fs_ctx *x = fs_setup(env, c);
    fastsm2_kx_ctx b;
    if (x && (fastsm2_privkey_generate(&x->peer) != FASTSM2_OK ||
              fastsm2_privkey_pubkey(&x->peer_pub, &x->peer) != FASTSM2_OK || !fs_kx_responder(x, &b, x->rb))) {
        bench_fail(IMPL, c->op, "the responder's key or R failed while preparing");
        fs_teardown(x);
        x = NULL;
    }
    fastsm2_kx_clear(&b);
    return x;
}

/* ---- checks --------------------------------------------------------------- */

static int fs_check_keygen(void *p)
{
    fs_ctx *x = p;
    const char *op = x->c->op;
    fastsm2_pubkey pub;
    fastsm2_privkey again;
    unsigned char d[32], sig[64], p1[65], p2[65];
    size_t l1 = sizeof(p1), l2 = sizeof(p2);

    if (fastsm2_privkey_pubkey(&pub, &x->gen) != FASTSM2_OK)
        return bench_fail(IMPL, op, "fastsm2_privkey_pubkey failed on a generated key");
    if (fastsm2_sign_digest(sig, &x->gen, x->env->e) != FASTSM2_OK || fastsm2_verify_digest(&pub, x->env->e, sig) != 1)
        return bench_fail(IMPL, op, "a generated key's signature does not verify");
    /* P = dG: loading d again must give the same public key. */
    if (fastsm2_privkey_to_bytes(d, &x->gen) != FASTSM2_OK || fastsm2_privkey_from_bytes(&again, d) != FASTSM2_OK)
        return bench_fail(IMPL, op, "a generated d does not load again");
    fastsm2_pubkey reloaded;
    if (fastsm2_privkey_pubkey(&reloaded, &again) != FASTSM2_OK ||
        fastsm2_pubkey_to_bytes(p1, &l1, &pub, 0) != FASTSM2_OK ||
        fastsm2_pubkey_to_bytes(p2, &l2, &reloaded, 0) != FASTSM2_OK || l1 != 65 || l2 != 65 || memcmp(p1, p2, 65) != 0)
        return bench_fail(IMPL, op, "P of a generated key differs from dG of its d");
    fastsm2_privkey_clear(&again);
    return 1;
}

static int fs_check_sig_msg(fs_ctx *x)
{
    const char *op = x->c->op;
    unsigned char der[FASTSM2_SIG_DER_MAX], msg[32];
    size_t derlen = sizeof(der);

    if (fastsm2_verify(&x->env->pub, NULL, 0, x->env->msg, sizeof(msg), x->sig) != 1)
        return bench_fail(IMPL, op, "the signature does not verify with fastsm2");
    memcpy(msg, x->env->msg, sizeof(msg));
    msg[0] ^= 1;
    if (fastsm2_verify(&x->env->pub, NULL, 0, msg, sizeof(msg), x->sig) != 0)
        return bench_fail(IMPL, op, "the signature verifies on another message");
    if (fastsm2_sig_to_der(der, &derlen, x->sig) != FASTSM2_OK)
        return bench_fail(IMPL, op, "fastsm2_sig_to_der failed");
    if (!bench_ossl_sm2_verify_msg(x->env, x->env->msg, sizeof(msg), der, derlen))
        return bench_fail(IMPL, op, "OpenSSL rejects the signature (EVP_DigestVerify, default ID)");
    if (!bench_ossl_sm2_verify_digest(x->env, x->env->e, der, derlen))
        return bench_fail(IMPL, op, "OpenSSL rejects the signature on e (EVP_PKEY_verify)");
    return 1;
}

static int fs_check_sign(void *p)
{
    return fs_check_sig_msg(p);
}

static int fs_check_verify(void *p)
{
    fs_ctx *x = p;
    unsigned char bad[64];
    memcpy(bad, x->sig, sizeof(bad));
    bad[63] ^= 1;
    if (fastsm2_verify(&x->env->pub, NULL, 0, x->env->msg, sizeof(x->env->msg), bad) != 0)
        return bench_fail(IMPL, x->c->op, "fastsm2_verify accepts a changed signature");
    return fs_check_sig_msg(x);
}

static int fs_check_sign_digest(void *p)
{
    fs_ctx *x = p;
    if (fastsm2_verify_digest(&x->env->pub, x->env->e, x->sig) != 1)
        return bench_fail(IMPL, x->c->op, "the signature does not verify with fastsm2_verify_digest");
    /* e is SM3(Z_A || msg) for the default ID: the same signature must pass
     * the message API of both libraries. */
    return fs_check_sig_msg(x);
}

/* The new key's signature verifies under its own public key, not under
 * the environment's key. */
static int fs_check_keygen_sign(void *p)
{
    fs_ctx *x = p;
    fastsm2_pubkey pub;
    if (fastsm2_privkey_pubkey(&pub, &x->gen) != FASTSM2_OK)
        return bench_fail(IMPL, x->c->op, "fastsm2_privkey_pubkey failed on a generated key");
    if (fastsm2_verify_digest(&pub, x->env->e, x->sig) != 1)
        return bench_fail(IMPL, x->c->op, "the new key's signature does not verify");
    if (fastsm2_verify_digest(&x->env->pub, x->env->e, x->sig) != 0)
        return bench_fail(IMPL, x->c->op, "the new key's signature verifies under another key");
    return 1;
}

static int fs_check_verify_digest(void *p)
{
    fs_ctx *x = p;
    unsigned char e[32];
    memcpy(e, x->env->e, sizeof(e));
    e[31] ^= 1;
    if (fastsm2_verify_digest(&x->env->pub, e, x->sig) != 0)
        return bench_fail(IMPL, x->c->op, "fastsm2_verify_digest accepts another digest");
    return fs_check_sig_msg(x);
}

/* Every signature of the batch verifies one at a time, and the first in
 * OpenSSL too (the message API of both); every verification said 1. */
static int fs_check_batch(void *p)
{
    fs_ctx *x = p;
    for (size_t i = 0; i < FS_BATCH; i++) {
        if (fastsm2_verify_digest(&x->env->pub, x->env->e, x->bsig + 64 * i) != 1)
            return bench_fail(IMPL, x->c->op, "a batch signature does not verify with fastsm2_verify_digest");
        if (x->c->run == fs_run_verify_batch && x->bres[i] != 1)
            return bench_fail(IMPL, x->c->op, "the batch rejects a good signature");
    }
    memcpy(x->sig, x->bsig, 64);
    return fs_check_sig_msg(x);
}

static int fs_check_encrypt(void *p)
{
    fs_ctx *x = p;
    const char *op = x->c->op;
    size_t n = x->c->param;

    x->ptlen = x->ptcap;
    if (fastsm2_decrypt(x->pt, &x->ptlen, &x->env->key, x->ct, x->ctlen, FASTSM2_CT_DER) != FASTSM2_OK ||
        x->ptlen != n || memcmp(x->pt, x->env->data, n) != 0)
        return bench_fail(IMPL, op, "fastsm2_decrypt does not return the plaintext");
    memset(x->pt, 0, x->ptcap);
    x->ptlen = x->ptcap;
    if (!bench_ossl_sm2_decrypt(x->env, x->pt, &x->ptlen, x->ct, x->ctlen) || x->ptlen != n ||
        memcmp(x->pt, x->env->data, n) != 0)
        return bench_fail(IMPL, op, "OpenSSL does not decrypt the ciphertext to the plaintext");
    return 1;
}

static int fs_check_decrypt(void *p)
{
    fs_ctx *x = p;
    if (x->ptlen != x->c->param || memcmp(x->pt, x->env->data, x->c->param) != 0)
        return bench_fail(IMPL, x->c->op, "decrypt does not return the plaintext");
    return fs_check_encrypt(p); /* and the ciphertext is OpenSSL's too */
}

/* The responder, from the last R_A, must reach the same key, and the two
 * confirmations must pass both ways. */
static int fs_check_kx(void *p)
{
    fs_ctx *x = p;
    const char *op = x->c->op;
    fastsm2_kx_ctx b;
    unsigned char rb[65], kb[16], sa[32], sb[32];
    int ok = 0;
    if (!fs_kx_responder(x, &b, rb) || memcmp(rb, x->rb, sizeof(rb)) != 0)
        bench_fail(IMPL, op, "the responder's R_B differs from the one used");
    else if (fastsm2_kx_compute(&b, kb, sizeof(kb), x->ra, sizeof(x->ra)) != FASTSM2_OK ||
             memcmp(kb, x->ka, sizeof(kb)) != 0)
        bench_fail(IMPL, op, "the two sides' keys differ");
    else if (fastsm2_kx_confirmation(sb, &b) != FASTSM2_OK ||
             fastsm2_kx_verify_confirmation(&x->kx, sb) != FASTSM2_OK ||
             fastsm2_kx_confirmation(sa, &x->kx) != FASTSM2_OK || fastsm2_kx_verify_confirmation(&b, sa) != FASTSM2_OK)
        bench_fail(IMPL, op, "a key confirmation (S_A, S_B) fails");
    else
        ok = 1;
    fastsm2_kx_clear(&b);
    return ok;
}

static int fs_check_sm3(void *p)
{
    fs_ctx *x = p;
    /* GB/T 32905 appendix A.1: SM3("abc"). */
    static const unsigned char abc[32] = {
        0x66, 0xc7, 0xf0, 0xf4, 0x62, 0xee, 0xed, 0xd9, 0xd1, 0xf2, 0xd4, 0x6b, 0xdc, 0x10, 0xe4, 0xe2,
        0x41, 0x67, 0xc4, 0x87, 0x5c, 0xf2, 0xf7, 0xa2, 0x29, 0x7d, 0xa0, 0x2b, 0x8f, 0x4b, 0xa8, 0xe0,
    };
    unsigned char ref[EVP_MAX_MD_SIZE], d[32];
    unsigned int reflen = 0;

    fastsm2_sm3(d, "abc", 3);
    if (memcmp(d, abc, 32) != 0)
        return bench_fail(IMPL, x->c->op, "SM3(\"abc\") is not the GB/T 32905 value");
    if (!EVP_Digest(x->env->data, x->c->param, ref, &reflen, x->env->sm3, NULL) || reflen != 32 ||
        memcmp(ref, x->digest, 32) != 0)
        return bench_fail(IMPL, x->c->op, "the digest differs from OpenSSL's SM3");
    return 1;
}

/* ---- the table -------------------------------------------------------------- */

#define FS_CASE(op, param, mbps, setup, run, check)                    \
    {                                                                  \
        IMPL, op, param, mbps, setup, run, check, fs_teardown, NULL, 0 \
    }

const bench_case bench_fastsm2_cases[] = {
    FS_CASE("keygen", 0, 0, fs_setup, fs_run_keygen, fs_check_keygen),
    FS_CASE("keygen-sign", 0, 0, fs_setup, fs_run_keygen_sign, fs_check_keygen_sign),
    FS_CASE("sign", 0, 0, fs_setup, fs_run_sign, fs_check_sign),
    FS_CASE("verify", 0, 0, fs_setup_verify, fs_run_verify, fs_check_verify),
    FS_CASE("sign-digest", 0, 0, fs_setup, fs_run_sign_digest, fs_check_sign_digest),
    FS_CASE("verify-digest", 0, 0, fs_setup_verify_digest, fs_run_verify_digest, fs_check_verify_digest),
    {IMPL, "sign-digest-batch", 0, 0, fs_setup_batch, fs_run_sign_batch, fs_check_batch, fs_teardown, NULL, FS_BATCH},
    {IMPL, "verify-digest-batch", 0, 0, fs_setup_batch, fs_run_verify_batch, fs_check_batch, fs_teardown, NULL,
     FS_BATCH},
    FS_CASE("encrypt-32", 32, 0, fs_setup, fs_run_encrypt, fs_check_encrypt),
    FS_CASE("decrypt-32", 32, 0, fs_setup_decrypt, fs_run_decrypt, fs_check_decrypt),
    FS_CASE("encrypt-4096", 4096, 0, fs_setup, fs_run_encrypt, fs_check_encrypt),
    FS_CASE("decrypt-4096", 4096, 0, fs_setup_decrypt, fs_run_decrypt, fs_check_decrypt),
    FS_CASE("kx", 0, 0, fs_setup_kx, fs_run_kx, fs_check_kx),
    FS_CASE("sm3-64", 64, 1, fs_setup, fs_run_sm3, fs_check_sm3),
    FS_CASE("sm3-1024", 1024, 1, fs_setup, fs_run_sm3, fs_check_sm3),
    FS_CASE("sm3-8192", 8192, 1, fs_setup, fs_run_sm3, fs_check_sm3),
    {NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, 0},
};
