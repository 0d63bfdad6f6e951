/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2-speed cases for multi-buffer SM3, the KDF and long-message
 * encryption, with OpenSSL beside them where it has the same
 * operation:
 *   sm3-x8-8192, sm3-x16-8192  8 (16) messages of 8 KiB hashed at once in the
 *       AVX2 (AVX-512) lanes, complete digests; aggregate MB/s over all
 *       lanes. The "openssl" record of these rows hashes the same messages
 *       one after the other (single-stream EVP SM3), so the ratio column is
 *       "lanes aggregate / OpenSSL single stream".
 *   kdf-N, kdf-N-scalar  N bytes of t = KDF(Z) for a 64-byte Z (SM2's
 *       x2 || y2), lanes engine and scalar engine (the same code with one
 *       counter block per compression). OpenSSL's record is its X9.63 KDF
 *       with SM3 (EVP_KDF "X963KDF"), the same function.
 *   encrypt-N, decrypt-N for N = 65536 and 1048576, in MB/s.
 * A case whose lanes this CPU lacks is not run, and its row says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "backend/backend.h"
#include "hash/kdf.h"
#include "cpu.h"
#include "bench.h"

#define MAX_LANES 16
#define BIG       (1u << 20)

typedef struct {
    const bench_env *env;
    const bench_case *c;
    const fs2_sm3_ops *sm3; /* lanes engine (sm3-x*) */
    unsigned lanes;
    unsigned char *data; /* input: lanes x 8 KiB, or the plaintext */
    unsigned char *ct;   /* ciphertext */
    size_t ctcap, ctlen;
    unsigned char *pt; /* output: plaintext or KDF output */
    size_t ptcap, ptlen;
    unsigned char digests[MAX_LANES][32];
    unsigned char z[64];
    EVP_PKEY_CTX *pctx;
    EVP_KDF_CTX *kctx;
} ml_ctx;

static void ml_teardown(void *p)
{
    ml_ctx *x = p;
    if (!x)
        return;
    free(x->data);
    free(x->ct);
    free(x->pt);
    EVP_PKEY_CTX_free(x->pctx);
    EVP_KDF_CTX_free(x->kctx);
    free(x);
}

/* The number in an op name after its last '-' before any suffix: the
 * message size of sm3-xL-N and encrypt-N, or L for sm3-xL. */
static unsigned op_lanes(const char *op)
{
    return (unsigned)strtoul(op + strlen("sm3-x"), NULL, 10);
}

static const fs2_sm3_ops *lanes_table(unsigned lanes)
{
    const fs2_sm3_ops *t;
    for (size_t i = 0; (t = fs2_sm3_table(i)) != NULL; i++)
        if (t->lanes == lanes && fs2_cpu_has(t->cpu_needs))
            return t;
    return NULL;
}

static void *ml_setup(const bench_env *env, const bench_case *c)
{
    ml_ctx *x = calloc(1, sizeof(*x));
    size_t n = c->param;
    if (!x)
        return NULL;
    x->env = env;
    x->c = c;
    x->data = malloc(n);
    x->ctcap = fastsm2_ciphertext_size(n, FASTSM2_CT_DER);
    x->ct = malloc(x->ctcap);
    x->ptcap = n + 1;
    x->pt = malloc(x->ptcap);
    if (!x->data || !x->ct || !x->pt) {
        ml_teardown(x);
        return NULL;
    }
    /* Deterministic filler beyond the shared 8 KiB of random data. */
    for (size_t i = 0; i < n; i++)
        x->data[i] = (unsigned char)(env->data[i % BENCH_MAX_DATA] ^ (i >> 13) ^ (i >> 21));
    memcpy(x->z, env->data, sizeof x->z);
    return x;
}

/* ---- multi-buffer SM3 ------------------------------------------------------ */

static void *ml_setup_lanes(const bench_env *env, const bench_case *c)
{
    ml_ctx *x = ml_setup(env, c);
    if (!x)
        return NULL;
    x->lanes = op_lanes(c->op);
    x->sm3 = lanes_table(x->lanes);
    if (!x->sm3 && strcmp(c->impl, "fastsm2") == 0) {
        bench_fail(c->impl, c->op, "no SM3 table with these lanes on this CPU");
        ml_teardown(x);
        return NULL;
    }
    return x;
}

/* Complete SM3 of lanes messages of 8192 bytes (GB/T 32905 5.2 padding: one
 * extra block per message), through the backend's lanes function. */
static int ml_run_lanes(void *p)
{
    static const uint32_t iv[8] = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                                   0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e};
    ml_ctx *x = p;
    uint32_t h[MAX_LANES][8];
    const unsigned char *ptr[MAX_LANES];
    unsigned char pad[64] = {0x80};
    for (unsigned l = 0; l < x->lanes; l++) {
        memcpy(h[l], iv, sizeof iv);
        ptr[l] = x->data + 8192 * l;
    }
    x->sm3->compress_lanes(h, ptr, 8192 / 64);
    fs2_store64_be(pad + 56, 8192 * 8);
    for (unsigned l = 0; l < x->lanes; l++)
        ptr[l] = pad;
    x->sm3->compress_lanes(h, ptr, 1);
    for (unsigned l = 0; l < x->lanes; l++)
        for (int i = 0; i < 8; i++)
            fs2_store32_be(x->digests[l] + 4 * i, h[l][i]);
    return 1;
}

static int os_run_lanes(void *p)
{
    ml_ctx *x = p;
    unsigned int n;
    for (unsigned l = 0; l < x->lanes; l++)
        if (!EVP_Digest(x->data + 8192 * l, 8192, x->digests[l], &n, x->env->sm3, NULL))
            return 0;
    return 1;
}

static int ml_check_lanes(void *p)
{
    ml_ctx *x = p;
    unsigned char want[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    for (unsigned l = 0; l < x->lanes; l++) {
        fastsm2_sm3(want, x->data + 8192 * l, 8192);
        if (memcmp(want, x->digests[l], 32) != 0)
            return bench_fail(x->c->impl, x->c->op, "a lane's digest differs from fastsm2_sm3");
        if (!EVP_Digest(x->data + 8192 * l, 8192, want, &n, x->env->sm3, NULL) || n != 32 ||
            memcmp(want, x->digests[l], 32) != 0)
            return bench_fail(x->c->impl, x->c->op, "a lane's digest differs from OpenSSL's SM3");
    }
    return 1;
}

/* ---- KDF ---------------------------------------------------------------- */

static int ml_run_kdf(void *p)
{
    ml_ctx *x = p;
    (void)fs2_kdf_xor_ex(x->pt, NULL, x->c->param, x->z, sizeof x->z, FS2_KDF_LANES);
    return 1;
}

static int ml_run_kdf_scalar(void *p)
{
    ml_ctx *x = p;
    (void)fs2_kdf_xor_ex(x->pt, NULL, x->c->param, x->z, sizeof x->z, FS2_KDF_SCALAR);
    return 1;
}

static void *os_setup_kdf(const bench_env *env, const bench_case *c)
{
    ml_ctx *x = ml_setup(env, c);
    EVP_KDF *kdf = x ? EVP_KDF_fetch(NULL, "X963KDF", NULL) : NULL;
    if (kdf)
        x->kctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (!x || !x->kctx) {
        bench_fail(c->impl, c->op, "EVP_KDF X963KDF is not available");
        ml_teardown(x);
        return NULL;
    }
    return x;
}

static int os_run_kdf(void *p)
{
    ml_ctx *x = p;
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SM3", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, x->z, sizeof x->z);
    params[2] = OSSL_PARAM_construct_end();
    return EVP_KDF_derive(x->kctx, x->pt, x->c->param, params) > 0;
}

static int ml_check_kdf(void *p)
{
    ml_ctx *x = p;
    unsigned char *want = malloc(x->c->param);
    int ok = want && fastsm2_kdf(want, x->c->param, x->z, sizeof x->z) == FASTSM2_OK &&
             memcmp(want, x->pt, x->c->param) == 0;
    free(want);
    return ok ? 1 : bench_fail(x->c->impl, x->c->op, "the KDF output differs from fastsm2_kdf");
}

/* ---- encryption ------------------------------------------------------------ */

static int ml_run_encrypt(void *p)
{
    ml_ctx *x = p;
    x->ctlen = x->ctcap;
    return fastsm2_encrypt(x->ct, &x->ctlen, &x->env->pub, x->data, x->c->param, FASTSM2_CT_DER) == FASTSM2_OK;
}

static int ml_run_decrypt(void *p)
{
    ml_ctx *x = p;
    x->ptlen = x->ptcap;
    return fastsm2_decrypt(x->pt, &x->ptlen, &x->env->key, x->ct, x->ctlen, FASTSM2_CT_DER) == FASTSM2_OK;
}

static void *ml_setup_decrypt(const bench_env *env, const bench_case *c)
{
    ml_ctx *x = ml_setup(env, c);
    if (x && !ml_run_encrypt(x)) {
        bench_fail(c->impl, c->op, "fastsm2_encrypt failed while preparing");
        ml_teardown(x);
        return NULL;
    }
    return x;
}

static void *os_setup_encrypt(const bench_env *env, const bench_case *c)
{
    ml_ctx *x = ml_setup(env, c);
    if (x) {
        x->pctx = EVP_PKEY_CTX_new_from_pkey(NULL, env->sm2, NULL);
        if (!x->pctx || EVP_PKEY_encrypt_init(x->pctx) <= 0) {
            bench_fail(c->impl, c->op, "EVP_PKEY_encrypt_init failed");
            ml_teardown(x);
            return NULL;
        }
    }
    return x;
}

static int os_run_encrypt(void *p)
{
    ml_ctx *x = p;
    x->ctlen = x->ctcap;
    return EVP_PKEY_encrypt(x->pctx, x->ct, &x->ctlen, x->data, x->c->param) > 0;
}

static void *os_setup_decrypt(const bench_env *env, const bench_case *c)
{
    ml_ctx *x = ml_setup(env, c);
    if (x) {
        x->pctx = EVP_PKEY_CTX_new_from_pkey(NULL, env->sm2, NULL);
        if (!x->pctx || EVP_PKEY_decrypt_init(x->pctx) <= 0 || !ml_run_encrypt(x)) {
            bench_fail(c->impl, c->op, "preparing the OpenSSL decryption failed");
            ml_teardown(x);
            return NULL;
        }
    }
    return x;
}

static int os_run_decrypt(void *p)
{
    ml_ctx *x = p;
    x->ptlen = x->ptcap;
    return EVP_PKEY_decrypt(x->pctx, x->pt, &x->ptlen, x->ct, x->ctlen) > 0;
}

/* The ciphertext decrypts to the plaintext in both libraries. */
static int ml_check_encrypt(void *p)
{
    ml_ctx *x = p;
    size_t n = x->c->param;
    x->ptlen = x->ptcap;
    if (fastsm2_decrypt(x->pt, &x->ptlen, &x->env->key, x->ct, x->ctlen, FASTSM2_CT_DER) != FASTSM2_OK ||
        x->ptlen != n || memcmp(x->pt, x->data, n) != 0)
        return bench_fail(x->c->impl, x->c->op, "fastsm2_decrypt does not return the plaintext");
    memset(x->pt, 0, x->ptcap);
    x->ptlen = x->ptcap;
    if (!bench_ossl_sm2_decrypt(x->env, x->pt, &x->ptlen, x->ct, x->ctlen) || x->ptlen != n ||
        memcmp(x->pt, x->data, n) != 0)
        return bench_fail(x->c->impl, x->c->op, "OpenSSL does not decrypt the ciphertext to the plaintext");
    return 1;
}

static int ml_check_decrypt(void *p)
{
    ml_ctx *x = p;
    if (x->ptlen != x->c->param || memcmp(x->pt, x->data, x->c->param) != 0)
        return bench_fail(x->c->impl, x->c->op, "decrypt does not return the plaintext");
    return ml_check_encrypt(p);
}

/* ---- the table -------------------------------------------------------------- */

/* Why the lanes of an sm3-xL row cannot run here, or NULL when they can. */
static const char *ml_lanes_why_not(const bench_case *c)
{
    static char why[256];
    unsigned lanes = op_lanes(c->op);
    size_t n;
    if (lanes_table(lanes))
        return NULL;
    n = (size_t)snprintf(why, sizeof why, "needs %u SM3 lanes (%s on x86-64); this CPU's backends:", lanes,
                         lanes == 16 ? "AVX-512" : "AVX2");
    for (size_t i = 0; fastsm2_backend_available(i) && n < sizeof why; i++)
        n += (size_t)snprintf(why + n, sizeof why - n, " %s", fastsm2_backend_available(i));
    return why;
}

#define ML_CASE(impl, op, param, mbps, setup, run, check)              \
    {                                                                  \
        impl, op, param, mbps, setup, run, check, ml_teardown, NULL, 0 \
    }
#define ML_LANES_CASE(impl, op, param, run)                                                       \
    {                                                                                             \
        impl, op, param, 1, ml_setup_lanes, run, ml_check_lanes, ml_teardown, ml_lanes_why_not, 0 \
    }

const bench_case bench_sm3lanes_cases[] = {
    ML_LANES_CASE("fastsm2", "sm3-x8-8192", 8 * 8192, ml_run_lanes),
    ML_LANES_CASE("openssl", "sm3-x8-8192", 8 * 8192, os_run_lanes),
    ML_LANES_CASE("fastsm2", "sm3-x16-8192", 16 * 8192, ml_run_lanes),
    ML_LANES_CASE("openssl", "sm3-x16-8192", 16 * 8192, os_run_lanes),
    ML_CASE("fastsm2", "kdf-1024", 1024, 1, ml_setup, ml_run_kdf, ml_check_kdf),
    ML_CASE("openssl", "kdf-1024", 1024, 1, os_setup_kdf, os_run_kdf, ml_check_kdf),
    ML_CASE("fastsm2", "kdf-1024-scalar", 1024, 1, ml_setup, ml_run_kdf_scalar, ml_check_kdf),
    ML_CASE("fastsm2", "kdf-4096", 4096, 1, ml_setup, ml_run_kdf, ml_check_kdf),
    ML_CASE("openssl", "kdf-4096", 4096, 1, os_setup_kdf, os_run_kdf, ml_check_kdf),
    ML_CASE("fastsm2", "kdf-4096-scalar", 4096, 1, ml_setup, ml_run_kdf_scalar, ml_check_kdf),
    ML_CASE("fastsm2", "encrypt-65536", 65536, 1, ml_setup, ml_run_encrypt, ml_check_encrypt),
    ML_CASE("openssl", "encrypt-65536", 65536, 1, os_setup_encrypt, os_run_encrypt, ml_check_encrypt),
    ML_CASE("fastsm2", "decrypt-65536", 65536, 1, ml_setup_decrypt, ml_run_decrypt, ml_check_decrypt),
    ML_CASE("openssl", "decrypt-65536", 65536, 1, os_setup_decrypt, os_run_decrypt, ml_check_decrypt),
    ML_CASE("fastsm2", "encrypt-1048576", BIG, 1, ml_setup, ml_run_encrypt, ml_check_encrypt),
    ML_CASE("openssl", "encrypt-1048576", BIG, 1, os_setup_encrypt, os_run_encrypt, ml_check_encrypt),
    ML_CASE("fastsm2", "decrypt-1048576", BIG, 1, ml_setup_decrypt, ml_run_decrypt, ml_check_decrypt),
    ML_CASE("openssl", "decrypt-1048576", BIG, 1, os_setup_decrypt, os_run_decrypt, ml_check_decrypt),
    {NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, 0},
};
