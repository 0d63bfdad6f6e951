/* SPDX-License-Identifier: Apache-2.0 */
/* Timing model of the signed-digit multi-comb shapes against fs2_ecmult_gen
 * (w = 7 windows): the comb's exact work (B*S mixed additions with the
 * infinity masks, S-1 doublings, B*S full scans of 2^(T-1) entries over a
 * B*2^(T-1)-point table) on the real table memory; the sum is not kG.
 * Built against a configured build tree (the x86 field, AVX2 scans, as the
 * avx2 and avx512-ifma backends' single operations):
 *   cc -O2 -DFS2_FIELD=FS2_FIELD_X86 -DFS2_EC_AVX2=1 -Isrc -Iinclude \
 *      -Ibuild/generated comb_model.c build/libfastsm2.a -lpthread -o comb_model
 * The B=37 T=7 S=1 line is the windows' own work in this model: its
 * distance to fs2_ecmult_gen is the model's overhead. */
#include "ec/ec_backend.c"
#include <stdio.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static void comb_emul(fs2_gej *r, const uint64_t k[4], int B, int T, int S)
{
    unsigned entries = 1u << (T - 1);
    const uint64_t *table = (const uint64_t *)fs2_gen_table;
    fs2_gej acc, sum;
    fs2_ge t;
    uint64_t acc_inf = ~(uint64_t)0;
    fs2_gej_set_infinity(&acc);
    unsigned pos = 0;
    for (int s = 0; s < S; s++) {
        if (s)
            fs2_gej_double(&acc, &acc);
        for (int b = 0; b < B; b++) {
            unsigned bits = fs2_scalar_bits(k, pos % 250, T);
            pos += T;
            unsigned idx = (bits & (entries - 1)) + 1, neg = bits >> (T - 1);
            fs2_select_limbs(&t, table + (size_t)b * entries * 8, entries, 8, idx);
            fs2_fe_cneg(&t.y, fs2_ct_mask_u64(neg));
            fs2_gej first;
            fs2_gej_set_ge(&first, &t);
            fs2_gej_add_ge_masks(&sum, &acc, &t, NULL, NULL);
            fs2_gej_cmov(&acc, &sum, ~acc_inf);
            fs2_gej_cmov(&acc, &first, acc_inf);
            acc_inf = 0;
        }
    }
    *r = acc;
}
int main(void)
{
    static const int shapes[][3] = {{37, 7, 1}, {11, 6, 4}, {22, 6, 2}, {43, 6, 1}, {4, 8, 8},
                                    {8, 8, 4},  {16, 8, 2}, {26, 5, 2}, {13, 5, 4}};
    int ns = sizeof shapes / sizeof shapes[0], n = 4000;
    double best[16];
    for (int i = 0; i < 16; i++)
        best[i] = 1e9;
    uint64_t k[4] = {0x0123456789abcdefULL, 0xfedcba9876543210ULL, 0x5555aaaa3333ccccULL, 0x0f0f0f0ff0f0f0f0ULL};
    fs2_gej r;
    volatile uint64_t sink = 0;
    for (int round = 0; round < 7; round++) {
        for (int s = -1; s < ns; s++) {
            double t0 = now();
            for (int i = 0; i < n; i++) {
                if (s < 0)
                    fs2_ecmult_gen(&r, k);
                else
                    comb_emul(&r, k, shapes[s][0], shapes[s][1], shapes[s][2]);
                k[i & 3] ^= r.x.v[0];
                sink ^= r.y.v[1];
            }
            double us = (now() - t0) / n * 1e6;
            if (us < best[s + 1])
                best[s + 1] = us;
        }
    }
    printf("w=7 windows (fs2_ecmult_gen): %.2f us\n", best[0]);
    for (int s = 0; s < ns; s++) {
        int B = shapes[s][0], T = shapes[s][1], S = shapes[s][2];
        printf("comb B=%2d T=%d S=%d: %2d adds %d dbl, %3u-entry scans, table %5.1f KiB: %.2f us (%.2fx the windows)\n",
               B, T, S, B * S, S - 1, 1u << (T - 1), B * (1 << (T - 1)) * 64 / 1024.0, best[s + 1],
               best[0] / best[s + 1]);
    }
    return (int)(sink & 0);
}
