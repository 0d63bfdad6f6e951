/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The EC slots that the avx512-ifma single-operation kG changed
 * (src/ec/ifma/ec_ifma1.c), timed side by side in one process: mul_base,
 * mul_base_and_sc_inv (key generation, signing), mul_base_and_mul
 * (encryption, the key's tables given) and mul (decryption's kP, no
 * tables), on the adx table, the avx2 one (whose code the avx512ifma table
 * ran for these slots before) and the avx512ifma one. Slices of 200 calls
 * alternate between the tables, ROUNDS of them (argument; default 30), and
 * the best slice counts, which keeps the ratios steady on a loaded machine.
 * Built and run by `make bench-ifma1`; exits 77 without AVX-512 IFMA.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cpu.h"
#include "ec/ec.h"
#include "internal.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#if defined(__x86_64__)
int main(int argc, char **argv)
{
    enum { SLOTS = 4, TABLES = 3, N = 200 };
    static const char *slot[SLOTS] = {"mul_base", "mul_base_and_sc_inv", "mul_base_and_mul", "mul (no tables)"};
    const fs2_ec_ops *ops[TABLES] = {&fs2_ec_ops_adx, &fs2_ec_ops_avx2, &fs2_ec_ops_avx512ifma};
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    uint64_t k[16][4], q[4];
    fs2_affine r, s, P;
    fs2_pubtab tab;
    double best[SLOTS][TABLES];
    if (!fs2_cpu_has(fs2_ec_ops_avx512ifma.cpu_needs)) {
        printf("ifma1-slots: this CPU has no AVX-512 IFMA: nothing to measure, skipped\n");
        return 77;
    }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 4; j++)
            k[i][j] = 0x9E3779B97F4A7C15ULL * (uint64_t)(4 * i + j + 1) ^ (uint64_t)(i * 7 + j);
    for (int i = 0; i < 16; i++)
        k[i][3] &= 0x7FFFFFFFFFFFFFFFULL; /* < n */
    fs2_ec_ops_adx.mul_base(&P, k[15]);
    fs2_ec_ops_adx.precompute_var(&tab, &P);
    for (int sl = 0; sl < SLOTS; sl++)
        for (int t = 0; t < TABLES; t++)
            best[sl][t] = 1e30;
    for (int round = 0; round < rounds; round++)
        for (int sl = 0; sl < SLOTS; sl++)
            for (int t = 0; t < TABLES; t++) {
                const fs2_ec_ops *o = ops[t];
                int n = sl == 3 ? N / 8 : N;
                double t0 = now();
                for (int i = 0; i < n; i++) {
                    const uint64_t *ki = k[i & 15];
                    if (sl == 0)
                        o->mul_base(&r, ki);
                    else if (sl == 1)
                        o->mul_base_and_sc_inv(&r, ki, q, k[(i + 1) & 15]);
                    else if (sl == 2)
                        o->mul_base_and_mul(&r, &s, &P, &tab, ki);
                    else
                        o->mul(&s, &P, NULL, ki);
                }
                double us = (now() - t0) / n * 1e6;
                if (us < best[sl][t])
                    best[sl][t] = us;
            }
    printf("one process, %d alternating slices a slot and table, best slice; microseconds a call\n\n", rounds);
    printf("| slot | adx | avx2 (the old path) | avx512ifma | adx / avx512ifma | avx2 / avx512ifma |\n");
    printf("|---|---|---|---|---|---|\n");
    for (int sl = 0; sl < SLOTS; sl++)
        printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", slot[sl], best[sl][0], best[sl][1], best[sl][2],
               best[sl][0] / best[sl][2], best[sl][1] / best[sl][2]);
    return 0;
}
#else
int main(void)
{
    printf("ifma1-slots: not x86-64: skipped\n");
    return 77;
}
#endif
