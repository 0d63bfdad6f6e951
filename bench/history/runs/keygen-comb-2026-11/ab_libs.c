/* SPDX-License-Identifier: Apache-2.0 */
/* A/B of two builds of libfastsm2.so in one process (dlopen, RTLD_LOCAL |
 * RTLD_DEEPBIND): each operation's slices alternate between the two
 * libraries (A B, B A, A B, ...), each side keeps its best slice; printed:
 * best against best, and the median of the per-pair ratios. Both
 * libraries must share the public API used here (0.2.0 and 0.3.0 do).
 *
 *   cc -O2 -Iinclude ab_libs.c -ldl -o ab_libs
 *   ./ab_libs A/libfastsm2.so B/libfastsm2.so [slice seconds] [pairs]
 *
 * Run it as A/A too (two copies of one library): that is the noise floor. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fastsm2.h>
typedef struct {
    int (*gen)(fastsm2_privkey *);
    int (*pub)(fastsm2_pubkey *, const fastsm2_privkey *);
    int (*pre)(fastsm2_pubkey *);
    int (*sign)(unsigned char *, const fastsm2_privkey *, const void *, size_t, const void *, size_t);
    int (*signd)(unsigned char *, const fastsm2_privkey *, const unsigned char *);
    int (*verify)(const fastsm2_pubkey *, const void *, size_t, const void *, size_t, const unsigned char *);
    int (*verifyd)(const fastsm2_pubkey *, const unsigned char *, const unsigned char *);
    int (*enc)(unsigned char *, size_t *, const fastsm2_pubkey *, const void *, size_t, int);
    int (*dec)(unsigned char *, size_t *, const fastsm2_privkey *, const unsigned char *, size_t, int);
    void (*sm3)(unsigned char *, const void *, size_t);
    int (*signb)(unsigned char *, const fastsm2_privkey *, size_t, const unsigned char *, size_t, int);
    int (*verifyb)(int *, const fastsm2_pubkey *, size_t, const unsigned char *, const unsigned char *, size_t, int);
    fastsm2_privkey key, k2;
    fastsm2_pubkey pk;
    unsigned char sig[64], e[32], msg[32], *ct[3], pt[1100000], bsig[64 * 64];
    size_t ctlen[3];
    int bres[64];
} lib;
static lib L[2];
static unsigned char data[1048576];
static const size_t sizes[3] = {32, 4096, 1048576};
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
#define SYM(f, n)                          \
    do {                                   \
        *(void **)&l->f = dlsym(h, n);     \
        if (!l->f) {                       \
            fprintf(stderr, "no %s\n", n); \
            exit(2);                       \
        }                                  \
    } while (0)
static void load(lib *l, const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        exit(2);
    }
    SYM(gen, "fastsm2_privkey_generate");
    SYM(pub, "fastsm2_privkey_pubkey");
    SYM(pre, "fastsm2_pubkey_precompute");
    SYM(sign, "fastsm2_sign");
    SYM(signd, "fastsm2_sign_digest");
    SYM(verify, "fastsm2_verify");
    SYM(verifyd, "fastsm2_verify_digest");
    SYM(enc, "fastsm2_encrypt");
    SYM(dec, "fastsm2_decrypt");
    SYM(sm3, "fastsm2_sm3");
    SYM(signb, "fastsm2_sign_digest_batch");
    SYM(verifyb, "fastsm2_verify_digest_batch");
    if (l->gen(&l->key) != 1 || l->pub(&l->pk, &l->key) != 1 || l->pre(&l->pk) != 1)
        exit(3);
    memset(l->msg, 'a', 32);
    memset(l->e, 7, 32);
    if (l->signd(l->sig, &l->key, l->e) != 1 || l->verifyd(&l->pk, l->e, l->sig) != 1)
        exit(4);
    for (int i = 0; i < 3; i++) {
        l->ct[i] = malloc(1100000);
        l->ctlen[i] = 1100000;
        if (l->enc(l->ct[i], &l->ctlen[i], &l->pk, data, sizes[i], 0) != 1)
            exit(5);
    }
    if (l->signb(l->bsig, &l->key, 1, data, 64, 1) != 1)
        exit(6);
}
static int run(lib *l, int op)
{
    size_t n;
    switch (op) {
    case 0: return l->gen(&l->k2) == 1;
    case 1: return l->gen(&l->k2) == 1 && l->signd(l->sig, &l->k2, l->e) == 1;
    case 2: return l->sign(l->sig, &l->key, NULL, 0, l->msg, 32) == 1;
    case 3: return l->verify(&l->pk, NULL, 0, l->msg, 32, l->sig) == 1;
    case 4: return l->signd(l->sig, &l->key, l->e) == 1;
    case 5: return l->verifyd(&l->pk, l->e, l->sig) == 1;
    case 6: return l->signb(l->bsig, &l->key, 1, data, 64, 1) == 1;
    case 7: return l->verifyb(l->bres, &l->pk, 1, data, l->bsig, 64, 1) == 1;
    case 8:
    case 9:
    case 10: n = sizeof l->pt; return l->enc(l->pt, &n, &l->pk, data, sizes[op - 8], 0) == 1;
    case 11:
    case 12:
    case 13: n = sizeof l->pt; return l->dec(l->pt, &n, &l->key, l->ct[op - 11], l->ctlen[op - 11], 0) == 1;
    default: break;
    }
    unsigned char h[32];
    l->sm3(h, data, op == 14 ? 64 : op == 15 ? 1024 : 8192);
    data[0] ^= h[0];
    return 1;
}
int main(int argc, char **argv)
{
    static const char *names[] = {"keygen",
                                  "keygen-sign",
                                  "sign",
                                  "verify",
                                  "sign-digest",
                                  "verify-digest",
                                  "sign-digest-batch (items)",
                                  "verify-digest-batch (items)",
                                  "encrypt-32",
                                  "encrypt-4096",
                                  "encrypt-1048576 (MB/s)",
                                  "decrypt-32",
                                  "decrypt-4096",
                                  "decrypt-1048576 (MB/s)",
                                  "sm3-64 (MB/s)",
                                  "sm3-1024 (MB/s)",
                                  "sm3-8192 (MB/s)"};
    double slice = argc > 3 ? atof(argv[3]) : 0.05;
    int rounds = argc > 4 ? atoi(argv[4]) : 15;
    load(&L[0], argv[1]);
    load(&L[1], argv[2]);
    printf("| op | A | B | B/A (best/best) | B/A per pair (median) |\n|---|---:|---:|---:|---:|\n");
    for (int op = 0; op < 17; op++) {
        double best[2] = {0, 0}, rat[64];
        int nr = 0;
        for (int r = 0; r < rounds; r++) {
            double v[2];
            for (int s = 0; s < 2; s++) {
                lib *l = &L[(r & 1) ? 1 - s : s];
                long cnt = 0;
                double t0 = now(), t;
                do {
                    if (!run(l, op)) {
                        fprintf(stderr, "%s failed\n", names[op]);
                        return 1;
                    }
                    cnt++;
                    t = now() - t0;
                } while (t < slice);
                double rate = cnt / t;
                if (op == 6 || op == 7)
                    rate *= 64;
                if (op == 10 || op == 13)
                    rate *= 1048576 / 1e6;
                if (op == 14)
                    rate *= 64 / 1e6;
                if (op == 15)
                    rate *= 1024 / 1e6;
                if (op == 16)
                    rate *= 8192 / 1e6;
                int which = (r & 1) ? 1 - s : s;
                v[which] = rate;
                if (rate > best[which])
                    best[which] = rate;
            }
            rat[nr++] = v[1] / v[0];
        }
        for (int i = 0; i < nr; i++)
            for (int j = i + 1; j < nr; j++)
                if (rat[j] < rat[i]) {
                    double x = rat[i];
                    rat[i] = rat[j];
                    rat[j] = x;
                }
        printf("| %s | %.1f | %.1f | %.3f | %.3f |\n", names[op], best[0], best[1], best[1] / best[0], rat[nr / 2]);
        fflush(stdout);
    }
    return 0;
}
