/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2prov beside OpenSSL's own default provider, both through EVP, in
 * one process: SM2 signing and verification as `openssl speed sm2` runs
 * them (EVP_DigestSignInit + EVP_DigestSign of 20 bytes with SM3, an ID
 * set, every iteration), in alternating slices: ROUNDS rounds, each a
 * slice of one beside a slice of the other. The figure is the median over
 * the rounds of the ratio fastsm2prov / default of a round's two slices
 * (robust to a loaded machine's bursts; docs/PROVIDER.md), beside the
 * median rates. tests/harness/test-openssl.sh runs it against each OpenSSL release.
 *
 * usage: bench_provider_default MODULE_DIR [SECONDS]
 * prints the libcrypto's version, the rates and a last line
 *   RATIO <version> sign <x> verify <y>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define ID     "TLSv1.3+GM+Cipher+Suite" /* the ID openssl speed sets */
#define ROUNDS 15

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

struct side {
    const char *name, *pq;
    EVP_PKEY *pk;
    EVP_MD_CTX *m, *mv;
    unsigned char sig[80];
    size_t siglen;
};

static int one(OSSL_LIB_CTX *lc, struct side *s, int sign, const unsigned char msg[20])
{
    EVP_MD_CTX *m = sign ? s->m : s->mv;
    EVP_PKEY_CTX *pc = NULL;
    int ok = sign ? EVP_DigestSignInit_ex(m, &pc, "SM3", lc, s->pq, s->pk, NULL) == 1
                  : EVP_DigestVerifyInit_ex(m, &pc, "SM3", lc, s->pq, s->pk, NULL) == 1;
    ok = ok && EVP_PKEY_CTX_set1_id(pc, ID, strlen(ID)) > 0;
    if (sign) {
        size_t sl = sizeof s->sig;
        ok = ok && EVP_DigestSign(m, s->sig, &sl, msg, 20) == 1;
        s->siglen = sl;
    } else {
        ok = ok && EVP_DigestVerify(m, s->sig, s->siglen, msg, 20) == 1;
    }
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODULE_DIR [SECONDS]\n", argv[0]);
        return 2;
    }
    double secs = argc > 2 ? atof(argv[2]) : 2.0, slice = secs / (4 * ROUNDS);
    OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(lc, argv[1]);
    if (!OSSL_PROVIDER_load(lc, "fastsm2prov") || !OSSL_PROVIDER_load(lc, "default")) {
        fprintf(stderr, "bench_provider_default: cannot load fastsm2prov (from %s) and default\n", argv[1]);
        return 2;
    }
    struct side sides[2] = {{.name = "fastsm2prov", .pq = "provider=fastsm2prov"},
                            {.name = "default", .pq = "provider=default"}};
    unsigned char msg[20] = {1, 2, 3};
    for (int i = 0; i < 2; i++) {
        struct side *s = &sides[i];
        /* not EVP_PKEY_Q_keygen: 3.0.2's takes no "SM2" */
        EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(lc, "SM2", s->pq);
        s->pk = NULL;
        if (g == NULL || EVP_PKEY_keygen_init(g) != 1 || EVP_PKEY_generate(g, &s->pk) != 1)
            s->pk = NULL;
        EVP_PKEY_CTX_free(g);
        s->m = EVP_MD_CTX_new();
        s->mv = EVP_MD_CTX_new();
        int step = !s->pk ? 1 : !s->m || !s->mv ? 2 : !one(lc, s, 1, msg) ? 3 : !one(lc, s, 0, msg) ? 4 : 0;
        if (step) {
            fprintf(stderr, "bench_provider_default: SM2 through %s failed (%s)\n", s->name,
                    step == 1   ? "keygen"
                    : step == 2 ? "no memory"
                    : step == 3 ? "sign"
                                : "verify");
            ERR_print_errors_fp(stderr);
            return 2;
        }
    }
    double rate[2][2][ROUNDS], ratio[2][ROUNDS]; /* [side][sign, verify][round] */
    for (int round = 0; round < ROUNDS; round++)
        for (int op = 0; op < 2; op++)
            for (int i = 0; i < 2; i++) {
                long n = 0;
                double t0 = now(), t;
                do {
                    for (int j = 0; j < 20; j++)
                        if (!one(lc, &sides[i], op == 0, msg)) {
                            fprintf(stderr, "bench_provider_default: %s %s failed\n", sides[i].name,
                                    op ? "verify" : "sign");
                            return 1;
                        }
                    n += 20;
                    t = now() - t0;
                } while (t < slice);
                rate[i][op][round] = n / t;
                if (i == 1)
                    ratio[op][round] = rate[0][op][round] / rate[1][op][round];
            }
    double best[2][2], r[2];
    for (int op = 0; op < 2; op++) {
        r[op] = median(ratio[op], ROUNDS);
        for (int i = 0; i < 2; i++)
            best[i][op] = median(rate[i][op], ROUNDS);
    }
    const char *v = OpenSSL_version(OPENSSL_VERSION_STRING);
    printf("%s\n", OpenSSL_version(OPENSSL_VERSION));
    printf("sign/s:   fastsm2prov %9.0f   default %9.0f   fastsm2prov/default %.2f (median of %d rounds)\n", best[0][0],
           best[1][0], r[0], ROUNDS);
    printf("verify/s: fastsm2prov %9.0f   default %9.0f   fastsm2prov/default %.2f (median of %d rounds)\n", best[0][1],
           best[1][1], r[1], ROUNDS);
    printf("RATIO %s sign %.2f verify %.2f\n", v, r[0], r[1]);
    for (int i = 0; i < 2; i++) {
        EVP_MD_CTX_free(sides[i].m);
        EVP_MD_CTX_free(sides[i].mv);
        EVP_PKEY_free(sides[i].pk);
    }
    OSSL_LIB_CTX_free(lc);
    return 0;
}
